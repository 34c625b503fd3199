import type { JobEvent } from './job.ts'
import type { ServiceEvent } from './serviceEvent.ts'

/**
 * The service's signing key in force at a job event, from its registry history: the key set by
 * the last registration or rotation before that log. Undefined when the history holds none.
 */
export function signingKeyAt(history: readonly ServiceEvent[], at: Pick<JobEvent, 'blockNumber' | 'logIndex'>): string | undefined {
  let key: string | undefined
  for (const event of history) {
    const before = BigInt(event.blockNumber) < BigInt(at.blockNumber) || (event.blockNumber === at.blockNumber && event.logIndex < at.logIndex)
    if (!before) break
    if (event.signingAddress !== undefined) key = event.signingAddress
  }
  return key
}
