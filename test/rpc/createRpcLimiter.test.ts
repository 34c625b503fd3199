import { createPublicClient, http } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { classifyRpcError } from '../../chain/rpc/classifyRpcError.ts'
import { createRpcLimiter, type CreateRpcLimiterParameters } from '../../chain/rpc/createRpcLimiter.ts'
import { mostCallsWithin } from './support/mostCallsWithin.ts'
import { startRpcStub, type RpcStub, type StartRpcStubParameters } from './support/startRpcStub.ts'

const stubs: RpcStub[] = []
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()))
})

/** A stub node and a client that reaches it through viem's batching http transport behind a limiter. */
async function setUp(stubParameters: StartRpcStubParameters, limiterParameters: CreateRpcLimiterParameters) {
  const stub = await startRpcStub(stubParameters)
  stubs.push(stub)
  const limiter = createRpcLimiter(limiterParameters)
  const client = createPublicClient({ transport: limiter.wrap(http(stub.url, { batch: { batchSize: 100 }, retryCount: 0 })) })
  const call = () => client.request({ method: 'eth_chainId' })
  return { stub, limiter, call }
}

const calls = (count: number, call: () => Promise<unknown>) => Promise.all(Array.from({ length: count }, call))

test('default', async () => {
  const { stub, limiter, call } = await setUp({}, {})
  await expect(calls(30, call)).resolves.toHaveLength(30)
  // No limit configured and none learned: one batch, nothing delayed.
  expect(stub.batches).toEqual([30])
  expect(limiter.state).toEqual({ configuredRate: null, rateInForce: null, delayedCalls: 0, rateLimitedAnswers: 0, pausedForMs: 0 })
})

describe('requestsPerSecond', () => {
  test('never more than N calls in any 1 s at the node, each member of a batch counted', async () => {
    const { stub, limiter, call } = await setUp({}, { requestsPerSecond: 4 })
    await expect(calls(12, call)).resolves.toHaveLength(12)
    expect(stub.calls).toHaveLength(12)
    expect(mostCallsWithin(stub.calls)).toBe(4)
    // The calls went out in batches (several calls per HTTP request), yet each counted one.
    expect(Math.max(...stub.batches)).toBeGreaterThan(1)
    expect(limiter.state).toMatchObject({ configuredRate: 4, rateInForce: 4, delayedCalls: 8, rateLimitedAnswers: 0 })
  })
})

describe('rate-limited answers', () => {
  test('pausedForMs: what is left of the wait the node asked for', async () => {
    const { stub, limiter, call } = await setUp({ reply: ({ n }) => (n === 0 ? { status: 429, headers: { 'retry-after': '2' }, body: 'Too Many Requests' } : undefined) }, {})
    const waiting = call()
    while (stub.answeredAt[0] === undefined) await new Promise((resolve) => setTimeout(resolve, 10))
    await new Promise((resolve) => setTimeout(resolve, 20))
    // The 2 s asked for, less what has passed since the answer (however long a loaded host took to get here).
    const pausedForMs = limiter.state.pausedForMs
    const sinceAnswerMs = performance.now() - (stub.answeredAt[0] as number)
    expect(pausedForMs).toBeGreaterThanOrEqual(2_000 - sinceAnswerMs - 20)
    expect(pausedForMs).toBeLessThanOrEqual(2_000)
    await expect(waiting).resolves.toBe('0x1')
    expect(limiter.state.pausedForMs).toBe(0)
  })

  test('HTTP 429 with Retry-After: 1: the calls wait and succeed, the rate drops, then recovers up to just under the rate refused', async () => {
    const rates: (number | null)[] = []
    const { stub, limiter, call } = await setUp(
      {
        reply: ({ n }) => {
          rates.push(limiter.state.rateInForce)
          return n < 2 ? { status: 429, headers: { 'retry-after': '1' }, body: 'Too Many Requests' } : undefined
        },
      },
      { requestsPerSecond: 8 },
    )
    await expect(calls(3, call)).resolves.toEqual(['0x1', '0x1', '0x1'])
    // Each refusal was waited out: the next request came at least Retry-After after it.
    for (const n of [0, 1]) {
      const next = stub.calls.find((member) => member.receivedAt > (stub.answeredAt[n] as number))
      expect((next as { receivedAt: number }).receivedAt - (stub.answeredAt[n] as number)).toBeGreaterThanOrEqual(990)
    }
    expect(limiter.state.rateLimitedAnswers).toBe(6)
    // Nothing is left of the waits once they are over (pausedForMs, which the poll's watchdog reads).
    expect(limiter.state.pausedForMs).toBe(0)
    // Halved once per refused batch (8 -> 4 -> 2), not once per refused call.
    expect(rates.slice(0, 3)).toEqual([8, 4, 2])
    await expect(calls(8, call)).resolves.toHaveLength(8)
    // The node refused 4 calls a second last: recovery stops at 3 until forgetRefusalAfterMs has passed.
    expect(limiter.state.rateInForce).toBe(3)
  })

  test('forgetRefusalAfterMs: once it has passed without a refusal, the rate recovers past the one refused', async () => {
    const { limiter, call } = await setUp(
      { reply: ({ n }) => (n === 0 ? { status: 429, headers: { 'retry-after': '0' }, body: 'Too Many Requests' } : undefined) },
      { requestsPerSecond: 8, forgetRefusalAfterMs: 0 },
    )
    await expect(call()).resolves.toBe('0x1')
    expect(limiter.state.rateInForce).toBe(4)
    await expect(calls(8, call)).resolves.toHaveLength(8)
    expect(limiter.state.rateInForce).toBeGreaterThan(4)
    expect(limiter.state.rateInForce).toBeLessThanOrEqual(8)
  })

  test('a JSON-RPC -32005 "rate limit" answer inside an HTTP 200 batch: waited out with backoff', async () => {
    const { stub, limiter, call } = await setUp(
      {
        answer: (_call, { n }) =>
          n === 0 ? { error: { code: -32005, message: 'rate limit exceeded, retry later' } } : { result: '0x1' },
      },
      { requestsPerSecond: 10, retryDelayMs: 100 },
    )
    await expect(calls(4, call)).resolves.toHaveLength(4)
    // The refused calls still hold their slots for a second: a node counts refused calls too.
    expect(stub.batches[0]).toBe(4)
    expect(stub.calls).toHaveLength(8)
    expect(limiter.state).toMatchObject({ configuredRate: 10, rateLimitedAnswers: 4, delayedCalls: 4 })
    expect(limiter.state.rateInForce).toBeLessThan(10)
  })

  test('with no configured rate, the first refusal sets a learned rate: half of what the node held', async () => {
    const { limiter, call } = await setUp(
      { reply: ({ n }) => (n === 0 ? { status: 429, body: '{"error":"too many requests"}' } : undefined) },
      { retryDelayMs: 50 },
    )
    await expect(calls(20, call)).resolves.toHaveLength(20)
    expect(limiter.state.configuredRate).toBeNull()
    expect(limiter.state.rateInForce).toBeGreaterThanOrEqual(10)
    expect(limiter.state.rateInForce).toBeLessThan(20)
    expect(limiter.state.rateLimitedAnswers).toBe(20)
  })

  test('after maxAttempts sends, the last rate-limited answer is thrown', async () => {
    const { stub, limiter, call } = await setUp(
      { reply: () => ({ status: 429, body: 'slow down' }) },
      { requestsPerSecond: 10, maxAttempts: 3, retryDelayMs: 50 },
    )
    const error = await call().catch((caught: unknown) => caught)
    expect(classifyRpcError(error)).toBe('rate-limited')
    expect(stub.calls).toHaveLength(3)
    expect(limiter.state).toMatchObject({ rateLimitedAnswers: 3, rateInForce: 1 })
  })

  test('other failures are thrown at once, not retried', async () => {
    const { stub, call } = await setUp({ reply: () => ({ status: 500, body: 'internal' }) }, { requestsPerSecond: 10 })
    await expect(call()).rejects.toThrow('HTTP request failed')
    expect(stub.calls).toHaveLength(1)
  })
})
