import type { Address } from 'viem'
import type { JobEvent } from './job.ts'
import type { ServiceEvent } from './serviceEvent.ts'
import { signingKeyAt } from './signingKeyAt.ts'

/**
 * The key a job's attestation was accepted against: the service's signing key in force at the
 * job's JobAttested event, from the service's registry history (the escrow accepts only that
 * key, so this is the event's `recoveredSigner`). Undefined before the job is attested.
 */
export function signingKeyAtAttestation(events: readonly JobEvent[], history: readonly ServiceEvent[]): Address | undefined {
  const attested = events.find(({ event }) => event === 'JobAttested')
  // The history holds addresses as AddressSchema checked them: EIP-55.
  return attested === undefined ? undefined : (signingKeyAt(history, attested) as Address | undefined)
}
