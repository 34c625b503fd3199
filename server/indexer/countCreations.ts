import { IncompleteLogsError, MissingCreationsError } from '../../errors/chain.ts'

export type CountCreationsParameters = {
  /** What is counted: a service (ServiceRegistered) or a job (JobCreated). */
  kind: 'service' | 'job'
  /** Ids of the creation events in the window's answer, in log order. */
  created: readonly bigint[]
  /** The contract's next id before the window, as counted so far; undefined while unknown. */
  nextBefore: bigint | undefined
  /** The contract's next id read at the window's last block, when that block is checked (a recent one). */
  nextAtEnd: bigint | undefined
  fromBlock: bigint
  toBlock: bigint
}

export type CountCreationsReturnType = {
  /** The next id after the window; undefined while still unknown. */
  next: bigint | undefined
  /**
   * With `nextBefore` unknown, the first id this window tells of (its lowest creation, or the next
   * id at its end): ids below it must have been created before the first indexed block, which
   * only the record of the id just below can tell (see readWindow).
   */
  lead: bigint | undefined
}

/**
 * The contract hands ids out one by one, in chain order, so a complete answer holds creation
 * events for consecutive ids, continuing from the count before the window; at a checked block
 * (the end of a scan, recent enough for the node to hold its state) the count must reach the
 * contract's own next id. An answer out of order, repeated or below the count is the node's
 * fault: IncompleteLogsError, and the window is read again. Ids skipped, here or at the end, are
 * MissingCreationsError: their events may lie in this window or in an earlier one whose answer
 * left them out (only a count can tell, and only later), so the scan reads again from just
 * before the last creation it holds (see scanRange).
 */
export function countCreations({ kind, created, nextBefore, nextAtEnd, fromBlock, toBlock }: CountCreationsParameters): CountCreationsReturnType {
  let next = nextBefore
  let lead: bigint | undefined
  for (const id of created) {
    if (next === undefined) lead = next = id
    if (id > next) throw new MissingCreationsError({ kind, fromId: next, toId: id - 1n, fromBlock, toBlock })
    if (id < next) {
      throw new IncompleteLogsError({
        fromBlock,
        toBlock,
        reason: `${kind} ${id} was created again or out of order (the next ${kind} id here is ${next})`,
      })
    }
    next = id + 1n
  }
  if (nextAtEnd === undefined) return { next, lead }
  if (next === undefined) return { next: nextAtEnd, lead: nextAtEnd }
  if (nextAtEnd > next) throw new MissingCreationsError({ kind, fromId: next, toId: nextAtEnd - 1n, fromBlock, toBlock })
  if (nextAtEnd < next) {
    throw new IncompleteLogsError({
      fromBlock,
      toBlock,
      reason: `the answer holds ${kind}s up to ${next - 1n}, but the contract's next ${kind} id at block ${toBlock} is ${nextAtEnd}`,
    })
  }
  return { next, lead }
}
