import { createPublicClient, fallback, http, TimeoutError } from 'viem'
import { getBlockNumber } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { classifyRpcError } from '../../chain/rpc/classifyRpcError.ts'
import { createNodeStallWatch, type NodeStall } from '../../chain/rpc/createNodeStallWatch.ts'
import { httpWithDeadline } from '../../chain/rpc/httpWithDeadline.ts'
import { RpcDeadlineError } from '../../errors/chain.ts'
import { createIndexerTransport } from '../../server/indexer/createIndexerTransport.ts'
import { startStallingProxy, type StallingProxy } from '../support/startStallingProxy.ts'
import { startRpcStub, type RpcStub } from './support/startRpcStub.ts'

const timeoutMs = 400
/**
 * A stalled request here ends only at its deadline (the proxy never finishes it), so a bound of
 * the deadline plus this slack says it ended at the deadline rather than never; the slack is for
 * a loaded host's timers, not a speed target (how fast is a bench's question).
 */
const slackMs = 10_000

let node: RpcStub
let proxy: StallingProxy

beforeAll(async () => {
  node = await startRpcStub({ answer: () => ({ result: '0x2a' }) })
  proxy = await startStallingProxy({ target: node.url })
})

afterAll(async () => {
  await proxy?.stop()
  await node?.close()
})

/** One uncached request through `transport`: its outcome and how long it took. */
async function blockNumberThrough(transport: Parameters<typeof createPublicClient>[0]['transport']): Promise<{ outcome: PromiseSettledResult<bigint>; ms: number }> {
  const startedAt = performance.now()
  const [outcome] = await Promise.allSettled([getBlockNumber(createPublicClient({ transport }), { cacheTime: 0 })])
  return { outcome: outcome as PromiseSettledResult<bigint>, ms: performance.now() - startedAt }
}

test('default', async () => {
  const { outcome } = await blockNumberThrough(httpWithDeadline(proxy.url, { retryCount: 0, timeoutMs }))
  expect(outcome).toEqual({ status: 'fulfilled', value: 42n })
})

describe('a stalled answer ends at the deadline, headers and body alike', () => {
  test.each(['halfBody', 'never'] as const)('%s', async (kind) => {
    proxy.stall({ kind, answers: 1 })
    const { outcome, ms } = await blockNumberThrough(httpWithDeadline(proxy.url, { retryCount: 0, timeoutMs }))
    expect(outcome.status).toBe('rejected')
    const reason = (outcome as PromiseRejectedResult).reason as Error
    const deadline = reason instanceof RpcDeadlineError ? reason : (reason.cause as Error)
    expect(deadline).toBeInstanceOf(RpcDeadlineError)
    expect(deadline).toBeInstanceOf(TimeoutError)
    expect(classifyRpcError(reason)).toBe('timeout')
    expect((deadline as RpcDeadlineError).shortMessage).toBe(
      `The RPC node at "${proxy.url}" did not finish its answer to eth_blockNumber within 0.4 s (${kind === 'never' ? 'no answer' : 'status and headers came, the body stopped'}).`,
    )
    expect(ms).toBeGreaterThanOrEqual(timeoutMs - 5)
    expect(ms).toBeLessThan(timeoutMs + slackMs)
  })
})

test("viem's own timeout stops counting once the headers are in (why the deadline is ours)", async () => {
  proxy.stall({ kind: 'halfBody', answers: 1 })
  const pending = getBlockNumber(createPublicClient({ transport: http(proxy.url, { retryCount: 0, timeout: timeoutMs }) }), { cacheTime: 0 })
  const outcome = await Promise.race([pending.then(() => 'answered', () => 'failed'), new Promise((resolve) => setTimeout(resolve, 4 * timeoutMs, 'still waiting'))])
  expect(outcome).toBe('still waiting')
  pending.catch(() => undefined)
})

test('a stalled call goes to the next node at the deadline', async () => {
  proxy.stall({ kind: 'halfBody', answers: 1 })
  const { outcome, ms } = await blockNumberThrough(
    fallback([httpWithDeadline(proxy.url, { retryCount: 0, timeoutMs }), httpWithDeadline(node.url, { retryCount: 0, timeoutMs })], { retryCount: 0 }),
  )
  expect(outcome).toEqual({ status: 'fulfilled', value: 42n })
  expect(ms).toBeLessThan(timeoutMs + slackMs)
})

test("the caller's signal still aborts at once, with its own reason", async () => {
  proxy.stall({ kind: 'never', answers: 1 })
  // A deadline far past the abort: a request ended well before it was ended by the signal.
  const longDeadlineMs = 60_000
  const client = createPublicClient({ transport: httpWithDeadline(proxy.url, { retryCount: 0, timeoutMs: longDeadlineMs }) })
  const cancel = new AbortController()
  const startedAt = performance.now()
  const request = client.request({ method: 'eth_blockNumber' }, { signal: cancel.signal })
  setTimeout(() => cancel.abort(), 100)
  await expect(request).rejects.toThrow(/abort/i)
  expect(performance.now() - startedAt).toBeLessThan(longDeadlineMs / 2)
})

test('the stall watch names the node from its threshold until it answers in full', async () => {
  // What the watch said at each change: read as it changes, not after a sleep a loaded host can overrun.
  const changes: (NodeStall | undefined)[] = []
  const watch = createNodeStallWatch({ url: 'the node', stallAfterMs: 100, onChange: () => changes.push(watch.stall()) })
  const transport = httpWithDeadline(proxy.url, { retryCount: 0, timeoutMs, onExchange: watch.onExchange })
  proxy.stall({ kind: 'halfBody', answers: 1 })
  await blockNumberThrough(transport)
  // Named from its threshold (100 ms), before the deadline (400 ms) ended the call.
  expect(changes[0]).toMatchObject({ url: 'the node', methods: ['eth_blockNumber'], timedOut: false })
  expect(watch.stall()).toMatchObject({ url: 'the node', methods: ['eth_blockNumber'], timedOut: true })
  await expect(blockNumberThrough(transport)).resolves.toMatchObject({ outcome: { status: 'fulfilled' } })
  expect(watch.stall()).toBeUndefined()
  expect(changes.length).toBeGreaterThanOrEqual(3)
})

test("the indexer's transport hands a stalled call to the next --rpc-url at the deadline, naming the stalled node meanwhile", async () => {
  const rpc = createIndexerTransport({ urls: [proxy.url, node.url], batchSize: 100, timeoutMs })
  const changes: NodeStall[][] = []
  const unwatch = rpc.watchStalls(() => changes.push(rpc.stalls()))
  proxy.stall({ kind: 'halfBody', answers: 1 })
  const { outcome, ms } = await blockNumberThrough(rpc.transport)
  unwatch()
  expect(outcome).toEqual({ status: 'fulfilled', value: 42n })
  expect(ms).toBeGreaterThanOrEqual(timeoutMs - 5)
  expect(ms).toBeLessThan(timeoutMs + slackMs)
  expect(changes.some((stalls) => stalls.some(({ url, timedOut }) => url === proxy.url && !timedOut))).toBe(true)
  expect(rpc.stalls()).toMatchObject([{ url: proxy.url, methods: ['eth_blockNumber'], timedOut: true }])
})
