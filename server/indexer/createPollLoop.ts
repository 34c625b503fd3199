import type { Client } from 'viem'
import type { StoreWriter } from '../store/StoreWriter.ts'
import type { Poll } from './createPoll.ts'
import { createPollWatchdog } from './createPollWatchdog.ts'
import { describeFailure } from './describeFailure.ts'
import { followHeads, type FollowHeadsChange, type FollowHeadsParameters, type HeadFollower } from './followHeads.ts'

export type CreatePollLoopParameters = {
  /** Where the loop records failed polls and how the new-heads subscription stands. */
  store: StoreWriter
  poll: Poll
  /** Pause between polls once caught up. */
  pollIntervalMs: number
  /** First retry delay after a failed poll, doubled per failure up to `maxRetryDelayMs`. */
  retryDelayMs: number
  maxRetryDelayMs: number
  /** A poll none of whose requests settled for this long is abandoned and retried (see createPollWatchdog). */
  pollStallMs: number
  /** How much longer the nodes asked to be left alone (createPollWatchdog's `heldForMs`). */
  pollHeldForMs?: (() => number) | undefined
  /** Every failed poll (it is retried). */
  onError: (error: unknown) => void
  /** Follow new heads over this WebSocket: each head starts a poll at once. */
  newHeads: Omit<FollowHeadsParameters, 'onHead' | 'onChange'> | undefined
  /** Every change of the new-heads subscription. */
  onNewHeadsChange: (change: FollowHeadsChange) => void
  now: () => number
}

export type PollLoop = {
  /** Starts polling and following new heads (once); resolves when the first poll has succeeded. */
  start(): Promise<void>
  /** Stops polling and following, and waits for a poll in flight to finish. */
  stop(): Promise<void>
}

/**
 * Runs `poll` through `client` again and again: at the poll interval once caught up, and after a
 * failure with capped exponential backoff. With `newHeads`, a head announced over WebSocket starts
 * a poll at once, and the interval poll stays as a safety net. Polls never overlap: heads that
 * arrive during one are coalesced into a single poll right after it. A poll reads from its cursor
 * to the head whatever woke it, so a lost or late head costs latency, never a block. A poll whose
 * HTTP node is still behind the announced head (providers balance the two across nodes) is
 * repeated after `retryDelayMs`, doubled while it stays behind, up to the poll interval.
 */
export function createPollLoop(
  client: Client,
  { store, poll, pollIntervalMs, retryDelayMs, maxRetryDelayMs, pollStallMs, pollHeldForMs, onError, newHeads, onNewHeadsChange, now }: CreatePollLoopParameters,
): PollLoop {
  let stopped = false
  let failures = 0
  let timer: NodeJS.Timeout | undefined
  let polling = false
  let headWaiting = false
  let announcedHead: bigint | undefined
  let behind = 0
  let inFlight: Promise<void> | undefined
  let started: Promise<void> | undefined
  let follower: HeadFollower | undefined
  let backfilled: () => void = () => undefined

  const schedule = (delayMs: number): void => {
    if (!stopped) timer = setTimeout(runPoll, delayMs)
  }

  const runPoll = (): void => {
    clearTimeout(timer)
    polling = true
    headWaiting = false
    const startedAt = now()
    const watchdog = createPollWatchdog(client, { stallMs: pollStallMs, heldForMs: pollHeldForMs })
    inFlight = poll(watchdog.client).finally(watchdog.stop).then(
      (headNumber) => {
        polling = false
        failures = 0
        backfilled()
        if (headWaiting && !stopped) runPoll()
        else if (announcedHead !== undefined && headNumber < announcedHead) {
          behind += 1
          schedule(Math.min(pollIntervalMs, retryDelayMs * 2 ** (behind - 1)))
        } else {
          behind = 0
          schedule(Math.max(0, pollIntervalMs - (now() - startedAt)))
        }
      },
      (error: unknown) => {
        polling = false
        failures += 1
        store.pollFailed(describeFailure(error))
        onError(error)
        schedule(Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (failures - 1)))
      },
    )
  }

  const wake = (): void => {
    if (stopped) return
    if (polling) headWaiting = true
    // After a failed poll, its retry reads up to the new head anyway; polling now would skip the backoff.
    else if (failures === 0) runPoll()
  }

  const onHead = (blockNumber: bigint): void => {
    // The last one, not the highest: after a reorg to a shorter branch the head number goes down.
    announcedHead = blockNumber
    store.headAnnounced(now())
    wake()
  }

  const onNewHeads = (change: FollowHeadsChange): void => {
    store.followingNewHeads(change.state)
    onNewHeadsChange(change)
    // Heads announced while the subscription was down were missed: catch up now, not at the next interval.
    if (change.state === 'subscribed') wake()
  }

  return {
    start() {
      started ??= new Promise<void>((resolve) => {
        backfilled = resolve
        if (newHeads !== undefined) {
          store.followingNewHeads('connecting')
          follower = followHeads({ ...newHeads, onHead, onChange: onNewHeads })
        }
        runPoll()
      })
      return started
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await Promise.all([inFlight, follower?.stop()])
    },
  }
}
