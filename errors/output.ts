import { BaseError } from './BaseError.ts'

/** Why an address is not public, as a message says it: "a loopback address". */
export type NonPublicKind = 'loopback' | 'private' | 'link-local' | 'non-public'

/**
 * A host name of a seller's output endpoint resolved to an address off the public internet. Only
 * a URL that names such an address itself reaches it: a name is the seller's to point anywhere
 * (and to re-point between lookups), an address in the person's own setting is not.
 */
export class OutputAddressRefusedError extends BaseError {
  override name = 'OutputAddressRefusedError'
  constructor({ hostname, address, kind }: { hostname: string; address: string; kind: NonPublicKind }) {
    super(
      `${JSON.stringify(hostname)} resolves to ${address}, a ${kind} address. Only a URL that names a non-public address itself (e.g. http://127.0.0.1:8082/outputs/{jobId}) may reach one.`,
      { code: 'output_address_refused' },
    )
  }
}
