import { setTimeout as sleep } from 'node:timers/promises'
import type { Client } from 'viem'
import { getBlock } from 'viem/actions'
import { type Job, jobStateNames } from '../../contract/job.ts'
import { JobEndedUnsettledError } from '../../errors/run.ts'
import type { MarketSource } from '../source/MarketSource.ts'
import { untilAborted } from './untilAborted.ts'

export type WaitForJobOutcomeParameters = {
  /** Must read the chain. */
  chain: MarketSource
  jobId: bigint
  pollIntervalMs: number
  /**
   * Wall-clock limit (ms since epoch) after which the job is treated as due for a refund; past it,
   * a failed poll (a node that stalls or is down) ends the wait with its error.
   */
  giveUpAt: number
  /** Consecutive failed polls (node unreachable) tolerated before giving up. */
  maxFailedPolls?: number
  /** Stops the wait (the caller cancelled), a request in flight included: rejects with the signal's reason. */
  signal?: AbortSignal | undefined
  /** Called after each poll that found the job still Pending. */
  onPending?: ((job: Job) => void) | undefined
}

export type WaitForJobOutcomeReturnType =
  /** Settled, or later Disputed/Slashed (it was settled first): the attestation is on chain. */
  | { outcome: 'settled'; job: Job }
  /** Still Pending at or past its expiry (by the chain's clock or the wall clock). */
  | { outcome: 'expired'; job: Job }

const settledStates = new Set<number>([
  jobStateNames.indexOf('Settled'),
  jobStateNames.indexOf('Disputed'),
  jobStateNames.indexOf('Slashed'),
])
const pendingState = jobStateNames.indexOf('Pending')

/**
 * Polls the job on chain until the seller settles it or it expires, or the signal aborts the wait.
 * Each request has the client's deadline (createToolContext: headers and body); the wait as a whole
 * has `giveUpAt`, which a stalling node cannot push back.
 */
export async function waitForJobOutcome(
  client: Client,
  { chain, jobId, pollIntervalMs, giveUpAt, maxFailedPolls = 30, signal, onPending }: WaitForJobOutcomeParameters,
): Promise<WaitForJobOutcomeReturnType> {
  let failedPolls = 0
  for (;;) {
    signal?.throwIfAborted()
    try {
      const [job, head] = await untilAborted(Promise.all([chain.getJob({ jobId }), getBlock(client, { blockTag: 'latest' })]), signal)
      failedPolls = 0
      if (settledStates.has(job.state)) return { outcome: 'settled', job }
      if (job.state !== pendingState) throw new JobEndedUnsettledError({ jobId, stateName: job.stateName })
      if (head.timestamp >= BigInt(job.timeout) || Date.now() >= giveUpAt) return { outcome: 'expired', job }
      onPending?.(job)
    } catch (error) {
      if (error instanceof JobEndedUnsettledError || signal?.aborted) throw error
      failedPolls += 1
      if (failedPolls >= maxFailedPolls || Date.now() >= giveUpAt) throw error
    }
    await sleep(pollIntervalMs, undefined, { signal })
  }
}
