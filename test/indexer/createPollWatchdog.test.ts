import { createClient, custom } from 'viem'
import { getBlockNumber } from 'viem/actions'
import { expect, test } from 'vitest'
import { PollStalledError } from '../../errors/chain.ts'
import { createPollWatchdog } from '../../server/indexer/createPollWatchdog.ts'

/** A node whose `eth_blockNumber` answers after `answerMs` (never, when undefined); it counts what it was sent. */
function nodeClient({ answerMs }: { answerMs: number | undefined }) {
  const sent: string[] = []
  const client = createClient({
    transport: custom(
      {
        request: async ({ method }: { method: string }) => {
          sent.push(method)
          if (answerMs === undefined) return new Promise(() => undefined)
          return new Promise((resolve) => setTimeout(resolve, answerMs, '0x2a'))
        },
      },
      { retryCount: 0 },
    ),
  })
  return { client, sent }
}

test('default', async () => {
  const { client } = nodeClient({ answerMs: 10 })
  const watchdog = createPollWatchdog(client, { stallMs: 200 })
  // Requests that keep settling keep the poll alive past stallMs.
  for (let read = 0; read < 30; read++) await expect(getBlockNumber(watchdog.client, { cacheTime: 0 })).resolves.toBe(42n)
  watchdog.stop()
})

test('a poll none of whose requests settles is failed at stallMs, and its later requests are not sent', async () => {
  const { client, sent } = nodeClient({ answerMs: undefined })
  const stallMs = 200
  const watchdog = createPollWatchdog(client, { stallMs })
  const startedAt = performance.now()
  const error = await getBlockNumber(watchdog.client, { cacheTime: 0 }).catch((reason: unknown) => reason)
  // The node never answers and the transport has no timeout, so only the watchdog ends the
  // request: not before stallMs, and then (the 10 s of slack is a loaded host's timers, not a speed target).
  expect(performance.now() - startedAt).toBeGreaterThanOrEqual(stallMs - 5)
  expect(performance.now() - startedAt).toBeLessThan(stallMs + 10_000)
  let link: unknown = error
  while (link instanceof Error && !(link instanceof PollStalledError)) link = link.cause
  expect(link).toBeInstanceOf(PollStalledError)
  expect((link as PollStalledError).message).toBe('The poll had no answer from any node for 0.2 s; it is abandoned and retried.')
  await expect(getBlockNumber(watchdog.client, { cacheTime: 0 })).rejects.toThrow(/abandoned/)
  expect(sent).toEqual(['eth_blockNumber'])
  watchdog.stop()
})

test('the watched client runs actions through its own request, not the bound actions of a public client', async () => {
  const { client, sent } = nodeClient({ answerMs: undefined })
  const watchdog = createPollWatchdog(client.extend((base) => ({ getBlockNumber: () => getBlockNumber(base) })), { stallMs: 100 })
  await expect(getBlockNumber(watchdog.client, { cacheTime: 0 })).rejects.toThrow(/abandoned/)
  expect(sent).toEqual(['eth_blockNumber'])
  watchdog.stop()
})

test('time with nothing in flight (applying logs, a commit) is not counted', async () => {
  const { client } = nodeClient({ answerMs: 10 })
  const watchdog = createPollWatchdog(client, { stallMs: 100 })
  await new Promise((resolve) => setTimeout(resolve, 300))
  await expect(getBlockNumber(watchdog.client, { cacheTime: 0 })).resolves.toBe(42n)
  watchdog.stop()
})

test('a wait the node asked for is waited out: an answer after it is not abandoned', async () => {
  const { client } = nodeClient({ answerMs: 450 })
  const pausedUntil = performance.now() + 400
  const watchdog = createPollWatchdog(client, { stallMs: 100, heldForMs: () => Math.max(0, pausedUntil - performance.now()) })
  await expect(getBlockNumber(watchdog.client, { cacheTime: 0 })).resolves.toBe(42n)
  watchdog.stop()
})
