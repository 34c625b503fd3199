import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns'
import type { LookupFunction } from 'node:net'
import type { NonPublicKind } from '../../errors/output.ts'
import { classifyAddress } from './classifyAddress.ts'

type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/** What a refused address is reported as: each caller's own error, saying what its callers may do instead. */
export type RefuseAddress = (refused: { hostname: string; address: string; kind: NonPublicKind }) => Error

/**
 * The `lookup` of a connection to someone else's endpoint: resolves the host name and refuses it
 * when any of its addresses is not public, so the socket connects only to an address checked
 * here (no second resolution a rebinding name could answer differently). Node calls it only for
 * names: an IP address in the URL is `requestUntrusted`'s to check.
 */
export function createCheckedLookup(refuse: RefuseAddress): LookupFunction {
  return (hostname, options, callback: Callback) => {
    const { all, ...rest } = options as LookupOneOptions | LookupAllOptions
    dnsLookup(hostname, { ...rest, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, [])
      for (const { address } of addresses) {
        const kind = classifyAddress(address)
        if (kind !== 'public') return callback(refuse({ hostname, address, kind }) as NodeJS.ErrnoException, [])
      }
      const [first] = addresses
      if (all === true) return callback(null, addresses)
      if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address.`), { code: 'ENOTFOUND' }), [])
      callback(null, first.address, first.family)
    })
  }
}
