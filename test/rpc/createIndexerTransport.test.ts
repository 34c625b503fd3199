import { createPublicClient, HttpRequestError } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { classifyRpcError } from '../../chain/rpc/classifyRpcError.ts'
import { readLogRangeHint } from '../../chain/rpc/readLogRangeHint.ts'
import { createIndexerTransport } from '../../server/indexer/createIndexerTransport.ts'
import { createCallRateWindow } from '../support/faultProxy/createCallRateWindow.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { startRpcStub, type RpcStub, type StartRpcStubParameters } from './support/startRpcStub.ts'

const stubs: RpcStub[] = []
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()))
})

const start = async (parameters: StartRpcStubParameters): Promise<RpcStub> => {
  const stub = await startRpcStub(parameters)
  stubs.push(stub)
  return stub
}

/** A client over the indexer's transport for these nodes, in this order. */
function clientFor(urls: [string, ...string[]], requestsPerSecond?: number) {
  const { transport, limits } = createIndexerTransport({ urls, requestsPerSecond, batchSize: 100, timeoutMs: 5_000 })
  const client = createPublicClient({ transport })
  return { call: () => client.request({ method: 'eth_chainId' }), limits }
}

const second = { answer: () => ({ result: '0x2' }) }

test('default', async () => {
  const first = await start({})
  const { call, limits } = clientFor([first.url])
  await expect(call()).resolves.toBe('0x1')
  expect(limits()).toEqual([{ url: first.url, configuredRate: null, rateInForce: null, delayedCalls: 0, rateLimitedAnswers: 0, pausedForMs: 0 }])
})

describe('a failing first node hands its calls to the next', () => {
  test('connection refused', async () => {
    const backup = await start(second)
    const { call } = clientFor([`http://127.0.0.1:${await getFreePort()}`, backup.url])
    await expect(Promise.all([call(), call()])).resolves.toEqual(['0x2', '0x2'])
  })

  test('HTTP 500', async () => {
    const first = await start({ reply: () => ({ status: 500, body: 'internal error' }) })
    const backup = await start(second)
    const { call } = clientFor([first.url, backup.url])
    await expect(Promise.all([call(), call(), call()])).resolves.toEqual(['0x2', '0x2', '0x2'])
    expect(first.calls).toHaveLength(3)
  })

  test('rate-limited: the node is not asked again until its Retry-After is over, its rate halves', async () => {
    const first = await start({ reply: () => ({ status: 429, headers: { 'retry-after': '30' }, body: 'Too Many Requests' }) })
    const backup = await start(second)
    const { call, limits } = clientFor([first.url, backup.url], 10)
    await expect(call()).resolves.toBe('0x2')
    await expect(Promise.all([call(), call()])).resolves.toEqual(['0x2', '0x2'])
    // Handed over at once, without waiting the 30 s out.
    expect(first.calls).toHaveLength(1)
    expect(backup.calls).toHaveLength(3)
    expect(limits().map(({ rateInForce, rateLimitedAnswers }) => ({ rateInForce, rateLimitedAnswers }))).toEqual([
      { rateInForce: 5, rateLimitedAnswers: 1 },
      { rateInForce: 10, rateLimitedAnswers: 0 },
    ])
  })

  test('the last node has no one to hand over to: it waits and sends again', async () => {
    const first = await start({ reply: () => ({ status: 500 }) })
    const last = await start({ reply: ({ n }) => (n === 0 ? { status: 429, headers: { 'retry-after': '0' }, body: 'rate limited' } : undefined), ...second })
    const { call } = clientFor([first.url, last.url])
    await expect(call()).resolves.toBe('0x2')
    expect(last.calls).toHaveLength(2)
  })
})

/** A public node's refusal of a request over its rate: HTTP 429, Retry-After: 1, one JSON-RPC error object whatever was asked. */
const overQuota = {
  status: 429,
  headers: { 'retry-after': '1' },
  body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32005, message: 'limit exceeded' } }),
}

describe('non-2xx answers', () => {
  test('a batch refused with HTTP 429 and one JSON-RPC error object: read as a rate limit, its Retry-After waited out', async () => {
    const node = await start({ reply: ({ n }) => (n === 0 ? overQuota : undefined) })
    const { call, limits } = clientFor([node.url])
    await expect(Promise.all([call(), call(), call(), call(), call()])).resolves.toEqual(['0x1', '0x1', '0x1', '0x1', '0x1'])
    expect(node.batches[0]).toBe(5)
    expect((node.calls[5] as { receivedAt: number }).receivedAt - (node.answeredAt[0] as number)).toBeGreaterThanOrEqual(990)
    // Learned from the refusal: half of the 5 calls refused, then recovering, to at most 4 while the refusal is remembered.
    expect(limits()[0]).toMatchObject({ configuredRate: null, rateLimitedAnswers: 5 })
    expect(limits()[0]?.rateInForce).toBeGreaterThanOrEqual(2)
    expect(limits()[0]?.rateInForce).toBeLessThanOrEqual(4)
  })

  test('a single call answered 429 with -32005 "limit exceeded": a rate limit waited out, not a size refusal', async () => {
    const node = await start({ reply: ({ n }) => (n < 2 ? { ...overQuota, headers: { 'retry-after': '0' } } : undefined) })
    const { call, limits } = clientFor([node.url])
    await expect(call()).resolves.toBe('0x1')
    expect(node.batches).toEqual([1, 1, 1])
    expect(limits()[0]?.rateLimitedAnswers).toBe(2)
  })

  test('HTTP 503 with Retry-After is a rate limit; without it, a failure handed to the next node', async () => {
    const busy = await start({ reply: ({ n }) => (n === 0 ? { status: 503, headers: { 'retry-after': '0' }, body: 'busy' } : undefined) })
    const { call, limits } = clientFor([busy.url])
    await expect(call()).resolves.toBe('0x1')
    expect(busy.calls).toHaveLength(2)
    expect(limits()[0]?.rateLimitedAnswers).toBe(1)

    const down = await start({ reply: () => ({ status: 503, body: 'down' }) })
    const backup = await start(second)
    const fallback = clientFor([down.url, backup.url])
    await expect(fallback.call()).resolves.toBe('0x2')
    expect(fallback.limits()[0]?.rateLimitedAnswers).toBe(0)
  })

  test('a JSON-RPC error in a non-2xx answer keeps its code and words: a range refusal is read as one', async () => {
    const error = { code: -32602, message: 'query exceeds max block range 2000' }
    const node = await start({ reply: () => ({ status: 400, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error }) }) })
    const failure = await clientFor([node.url]).call().catch((caught: unknown) => caught)
    expect(failure).toBeInstanceOf(HttpRequestError)
    expect((failure as HttpRequestError).status).toBe(400)
    expect(classifyRpcError(failure)).toBe('too-large')
    expect(readLogRangeHint(failure)).toEqual({ kind: 'limit', blocks: 2_000n })
  })
})

describe('a node that teaches its rate by refusing', () => {
  test('10 calls a second, batch members counted: one refusal teaches it, then no second and no batch over it', async () => {
    const quota = createCallRateWindow({ limit: 10 })
    let refusals = 0
    const node = await start({ reply: ({ calls }) => (quota.admit(calls.length) ? undefined : (refusals += 1, overQuota)) })
    const { call, limits } = clientFor([node.url])
    // One after another until the node refuses one: however slow the host, 11 land in a second.
    for (let sent = 0; sent < 25 || (limits()[0]?.rateLimitedAnswers === 0 && sent < 500); sent += 1) await call()
    // The 11th call within a second was refused: the 10 answered just before it are the rate.
    expect(limits()[0]).toMatchObject({ configuredRate: null, rateInForce: 10, rateLimitedAnswers: 1 })
    // Once the second those 10 filled has passed, the next calls may go together, in batches.
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    await expect(Promise.all(Array.from({ length: 20 }, call))).resolves.toHaveLength(20)
    expect(limits()[0]).toMatchObject({ rateInForce: 10, rateLimitedAnswers: 1 })
    expect(refusals).toBe(1)
    expect(Math.max(...node.batches)).toBeLessThanOrEqual(10)
    expect(node.batches.filter((members) => members > 1).length).toBeGreaterThan(0)
  })
})
