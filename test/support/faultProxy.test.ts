import { afterEach, describe, expect, inject, test } from 'vitest'
import { startFaultProxy, type FaultProxy } from './faultProxy.ts'

const { rpcUrl } = inject('devnet')
let proxy: FaultProxy | undefined

afterEach(async () => {
  await proxy?.stop()
  proxy = undefined
})

async function rpc(url: string, body: unknown, timeoutMs = 5_000): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const text = await response.text()
  return { status: response.status, json: response.status === 200 ? JSON.parse(text) : text }
}

const chainId = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }
const getLogs = (fromBlock: number, toBlock: number, id = 2) => ({
  jsonrpc: '2.0',
  id,
  method: 'eth_getLogs',
  params: [{ fromBlock: `0x${fromBlock.toString(16)}`, toBlock: `0x${toBlock.toString(16)}` }],
})

test('default', async () => {
  proxy = await startFaultProxy({ target: rpcUrl })
  expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  expect(await rpc(proxy.url, chainId)).toEqual({ status: 200, json: { jsonrpc: '2.0', id: 1, result: '0x7a69' } })
  expect(proxy.requests()).toBe(1)
  expect(proxy.counts).toEqual({ drop: 0, status429: 0, status500: 0, delay: 0, rangeTooLarge: 0 })
})

describe('faultRate', () => {
  test('drop: the connection closes without an answer', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, faultRate: 1, kinds: ['drop'] })
    await expect(rpc(proxy.url, chainId)).rejects.toThrow()
    expect(proxy.counts.drop).toBe(1)
  })

  test('status429 and status500: HTTP errors', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, faultRate: 1, kinds: ['status429'] })
    expect((await rpc(proxy.url, chainId)).status).toBe(429)
    await proxy.stop()
    proxy = await startFaultProxy({ target: rpcUrl, faultRate: 1, kinds: ['status500'] })
    expect((await rpc(proxy.url, chainId)).status).toBe(500)
    expect(proxy.counts.status500).toBe(1)
  })

  test('delay: held past the client timeout', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, faultRate: 1, kinds: ['delay'], delayMs: 1_000 })
    await expect(rpc(proxy.url, chainId, 200)).rejects.toThrow(/timeout|aborted/i)
    expect(proxy.counts.delay).toBe(1)
  })

  test('setFaultRate switches faults off and on', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, faultRate: 1, kinds: ['status500'] })
    proxy.setFaultRate(0)
    expect((await rpc(proxy.url, chainId)).status).toBe(200)
    proxy.setFaultRate(1)
    expect((await rpc(proxy.url, chainId)).status).toBe(500)
  })

  test('a mix at a partial rate injects every kind', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, faultRate: 0.5, delayMs: 300, seed: 3 })
    for (let request = 0; request < 60; request += 1) await rpc(proxy.url, chainId, 100).catch(() => undefined)
    const { drop, status429, status500, delay } = proxy.counts
    expect(Math.min(drop, status429, status500, delay)).toBeGreaterThan(0)
    expect(drop + status429 + status500 + delay).toBeLessThan(60)
  })
})

describe('maxLogRange', () => {
  test('refuses a wider eth_getLogs range with a "range too large" error', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, maxLogRange: 50n })
    const { json } = await rpc(proxy.url, getLogs(0, 50))
    expect(json).toMatchObject({ id: 2, error: { code: -32005, message: expect.stringMatching(/range too large/) } })
    expect((await rpc(proxy.url, getLogs(1, 50))).json).toMatchObject({ id: 2, result: expect.any(Array) })
    expect(proxy.counts.rangeTooLarge).toBe(1)
  })

  test('in a batch, only the wide eth_getLogs is refused', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, maxLogRange: 50n })
    const { json } = await rpc(proxy.url, [chainId, getLogs(0, 1_000), getLogs(0, 10, 3)])
    expect(json).toMatchObject([
      { id: 1, result: '0x7a69' },
      { id: 2, error: { code: -32005 } },
      { id: 3, result: expect.any(Array) },
    ])
  })
})
