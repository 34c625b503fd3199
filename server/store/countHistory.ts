import { eventNameAt, eventSlots, settledWeiAt, type History } from './jobHistory.ts'
import type { StoreCounters } from './StoreReader.ts'

/** Adds a job's history to the counters (`sign` 1), or takes it out of them (-1) before it is replaced. */
export function countHistory(counters: StoreCounters, history: History, sign: 1 | -1): void {
  let settled = false
  let expired = false
  let slashed = false
  for (let at = 0; at < history.length; at += eventSlots) {
    const name = eventNameAt(history, at)
    if (name === 'JobExpired') expired = true
    if (name === 'JobSlashed') slashed = true
    if (name !== 'JobSettled') continue
    settled = true
    const wei = settledWeiAt(history, at)
    if (wei !== undefined) counters.totalSettledWei += sign === 1 ? wei : -wei
  }
  if (settled) counters.settledJobs += sign
  if (expired) counters.expiredJobs += sign
  if (slashed) counters.slashedJobs += sign
}
