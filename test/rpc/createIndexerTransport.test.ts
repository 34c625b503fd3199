import { createPublicClient } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { createIndexerTransport } from '../../server/indexer/createIndexerTransport.ts'
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
  expect(limits()).toEqual([{ url: first.url, configuredRate: null, rateInForce: null, delayedCalls: 0, rateLimitedAnswers: 0 }])
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
