import { afterEach, describe, expect, inject, test } from 'vitest'
import { startFaultProxy, type FaultProxy } from './faultProxy.ts'

const { rpcUrl } = inject('devnet')
let proxy: FaultProxy | undefined

afterEach(async () => {
  await proxy?.stop()
  proxy = undefined
})

/**
 * One JSON-RPC exchange. Only a test of a client's timeout gives `timeoutMs`: otherwise the test's
 * own timeout is the deadline, since the shared node answers late while other files load it.
 */
async function rpc(url: string, body: unknown, timeoutMs?: number): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: timeoutMs === undefined ? null : AbortSignal.timeout(timeoutMs),
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
  expect(Object.values(proxy.counts).every((count) => count === 0)).toBe(true)
  expect(Object.keys(proxy.counts)).toEqual([
    'drop',
    'status429',
    'status500',
    'delay',
    'rangeTooLarge',
    'emptyLogs',
    'partialLogs',
    'undecodableLog',
    'otherChain',
    'lagging',
    'stateUnavailable',
    'rateLimited',
    'slowLogs',
  ])
})

test('slowLogsAbove: an answer holding more logs is held, a smaller one is not', async () => {
  const delayMs = 5_000
  const slow = await startFaultProxy({ target: rpcUrl, slowLogsAbove: 3, delayMs })
  try {
    const timed = async (request: unknown): Promise<{ ms: number; logs: number }> => {
      const startedAt = performance.now()
      const { json } = await rpc(slow.url, request)
      return { ms: performance.now() - startedAt, logs: (json as { result: unknown[] }).result.length }
    }
    const large = timed(getLogs(0, 200))
    let largeAnswered = false
    // A failure is the await's below to report.
    large.then(() => (largeAnswered = true), () => undefined)
    await expect.poll(() => slow.counts.slowLogs).toBe(1)
    // Asked while the large answer is held: it comes back first, however slow the node.
    const small = await timed(getLogs(1, 1))
    expect(largeAnswered).toBe(false)
    expect(small.logs).toBeLessThanOrEqual(3)
    const { ms, logs } = await large
    expect(logs).toBeGreaterThan(3)
    expect(ms).toBeGreaterThanOrEqual(delayMs - 10)
    expect(slow.counts.slowLogs).toBe(1)
  } finally {
    await slow.stop()
  }
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
  test('logRangeWording: the refusal in a real provider\'s words', async () => {
    const refusal = async (wording: 'alchemy' | 'infura' | 'quicknode') => {
      await proxy?.stop()
      proxy = await startFaultProxy({ target: rpcUrl, maxLogRange: 10_000n, logRangeWording: wording })
      return ((await rpc(proxy.url, getLogs(16, 20_015))).json as { error: unknown }).error
    }
    expect(await refusal('alchemy')).toMatchInlineSnapshot(`
      {
        "code": -32600,
        "message": "You can make eth_getLogs requests with up to a 10000 block range. Based on your parameters, this block range should work: [0x10, 0x271f]",
      }
    `)
    expect(await refusal('infura')).toMatchInlineSnapshot(`
      {
        "code": -32602,
        "message": "range 20000 exceeds limit of 10000",
      }
    `)
    expect(await refusal('quicknode')).toMatchInlineSnapshot(`
      {
        "code": -32614,
        "message": "eth_getLogs is limited to a 10,000 range",
      }
    `)
  })

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

type RpcLog = { data: string; topics: string[]; logIndex: string; blockNumber: string }
const blockNumber = { jsonrpc: '2.0', id: 4, method: 'eth_blockNumber', params: [] }

async function allLogs(url: string): Promise<RpcLog[]> {
  const head = Number.parseInt(((await rpc(url, blockNumber)).json as { result: string }).result, 16)
  return ((await rpc(url, getLogs(0, head))).json as { result: RpcLog[] }).result
}

describe('log faults', () => {
  test('emptyLogs, partialLogs, undecodableLog: queued, each spoils one answer that holds logs', async () => {
    proxy = await startFaultProxy({ target: rpcUrl })
    const logs = await allLogs(proxy.url)
    expect(logs.length).toBeGreaterThan(2)
    proxy.queueLogFault('emptyLogs', 1)
    proxy.queueLogFault('partialLogs', 1)
    proxy.queueLogFault('undecodableLog', 1)
    expect(await allLogs(proxy.url)).toEqual([])
    const partial = await allLogs(proxy.url)
    expect(partial.length).toBe(logs.length - 1)
    for (const log of partial) expect(logs).toContainEqual(log)
    const spoiled = await allLogs(proxy.url)
    expect(spoiled.length).toBe(logs.length)
    expect(spoiled.filter((log, index) => JSON.stringify(log) !== JSON.stringify(logs[index])).length).toBe(1)
    expect(await allLogs(proxy.url)).toEqual(logs)
    expect(proxy.counts).toMatchObject({ emptyLogs: 1, partialLogs: 1, undecodableLog: 1 })
  })

  test('logFaultRate: a share of the answers, every kind', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, logFaultRate: 0.5, seed: 5 })
    for (let request = 0; request < 30; request += 1) await allLogs(proxy.url)
    const { emptyLogs, partialLogs, undecodableLog } = proxy.counts
    expect(Math.min(emptyLogs, partialLogs, undecodableLog)).toBeGreaterThan(0)
    expect(emptyLogs + partialLogs + undecodableLog).toBeLessThan(30)
  })
})

describe('lagRate', () => {
  test('a lagging backend: its latest block is lagBlocks behind, later blocks and logs are unknown to it', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, lagRate: 1, lagBlocks: 5n })
    const head = Number.parseInt(((await rpc(rpcUrl, blockNumber)).json as { result: string }).result, 16)
    expect((await rpc(proxy.url, blockNumber)).json).toMatchObject({ result: `0x${(head - 5).toString(16)}` })
    const byNumber = (number: number) => ({ jsonrpc: '2.0', id: 5, method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] })
    expect((await rpc(proxy.url, byNumber(head))).json).toMatchObject({ result: null })
    const logs = ((await rpc(proxy.url, getLogs(0, head))).json as { result: RpcLog[] }).result
    expect(logs.every((log) => Number.parseInt(log.blockNumber, 16) <= head - 5)).toBe(true)
    expect(proxy.counts.lagging).toBe(3)
  })
})

describe('switchChain', () => {
  test('another chain behind the same URL, and back', async () => {
    proxy = await startFaultProxy({ target: rpcUrl })
    proxy.switchChain({ target: rpcUrl, chainId: 1 })
    expect((await rpc(proxy.url, chainId)).json).toMatchObject({ result: '0x1' })
    proxy.switchChain(undefined)
    expect((await rpc(proxy.url, chainId)).json).toMatchObject({ result: '0x7a69' })
    expect(proxy.counts.otherChain).toBe(1)
  })
})

const hex = (value: number | bigint) => `0x${value.toString(16)}`
const call = (method: string, params: unknown[], id = 6) => ({ jsonrpc: '2.0', id, method, params })
type RpcHeader = { number: string; hash: string; stateRoot: string }

async function header(number: number): Promise<RpcHeader> {
  return ((await rpc(rpcUrl, call('eth_getBlockByNumber', [hex(number), false]))).json as { result: RpcHeader }).result
}

describe('stateBlocks', () => {
  const stateBlocks = 10n
  const balance = (block: unknown) => call('eth_getBalance', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', block])

  test('a state older than head - stateBlocks is missing, with geth\'s error', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, stateBlocks })
    const old = await header(1)
    const { status, json } = await rpc(proxy.url, balance(hex(1)))
    expect(status).toBe(200)
    expect(json).toEqual({
      jsonrpc: '2.0',
      id: 6,
      error: { code: -32000, message: `missing trie node ${old.stateRoot.slice(2)} (path ) state ${old.stateRoot} is not available` },
    })
    expect(proxy.counts.stateUnavailable).toBe(1)
  })

  test('recent numbers and tags are served', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, stateBlocks })
    const head = Number.parseInt(((await rpc(rpcUrl, blockNumber)).json as { result: string }).result, 16)
    for (const block of ['latest', 'pending', 'safe', 'finalized', hex(head), hex(head - 10), { blockNumber: hex(head - 10) }]) {
      expect((await rpc(proxy.url, balance(block))).json).toMatchObject({ result: expect.stringMatching(/^0x/) })
    }
    expect((await rpc(proxy.url, balance(hex(head - 11)))).json).toMatchObject({ error: { code: -32000 } })
    expect(proxy.counts.stateUnavailable).toBe(1)
  })

  test('every state read is judged by its block: number, tag, hash or EIP-1898 object', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, stateBlocks })
    const old = await header(2)
    const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    const refused = [
      call('eth_call', [{ to: account, data: '0x' }, old.number]),
      call('eth_estimateGas', [{ from: account, to: account }, 'earliest']),
      call('eth_createAccessList', [{ from: account, to: account }, old.hash]),
      call('eth_getCode', [account, { blockHash: old.hash }]),
      call('eth_getTransactionCount', [account, { blockNumber: old.number }]),
      call('eth_getStorageAt', [account, '0x0', old.number]),
      call('eth_getProof', [account, [], old.number]),
    ]
    for (const request of refused) {
      expect((await rpc(proxy.url, request)).json, request.method).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/^missing trie node/) } })
    }
    expect(proxy.counts.stateUnavailable).toBe(refused.length)
  })

  test('headers, transactions, receipts and logs of old blocks stay available', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, stateBlocks })
    const block = ((await rpc(proxy.url, call('eth_getBlockByNumber', [hex(2), true]))).json as { result: { transactions: { hash: string }[] } }).result
    expect(block.transactions.length).toBeGreaterThan(0)
    const hash = (block.transactions[0] as { hash: string }).hash
    expect((await rpc(proxy.url, call('eth_getTransactionByHash', [hash]))).json).toMatchObject({ result: { hash } })
    expect((await rpc(proxy.url, call('eth_getTransactionReceipt', [hash]))).json).toMatchObject({ result: { transactionHash: hash } })
    expect(((await rpc(proxy.url, getLogs(0, 20))).json as { result: RpcLog[] }).result.length).toBeGreaterThan(0)
    expect(proxy.counts.stateUnavailable).toBe(0)
  })

  test('in a batch, only the old state read is refused', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, stateBlocks })
    const { json } = await rpc(proxy.url, [balance('latest'), { ...balance(hex(1)), id: 7 }])
    expect(json).toMatchObject([{ id: 6, result: expect.any(String) }, { id: 7, error: { code: -32000 } }])
  })
})

// The limit judges a request when it arrives, before the node is asked: the requests below arrive
// together or are sent once the proxy has taken the previous one, so a slow node changes nothing.
describe('rateLimit', () => {
  const send = (url: string, body: unknown): Promise<Response> =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const admitted = (calls: number): Promise<void> => expect.poll(() => proxy?.calls.eth_chainId, { interval: 5 }).toBe(calls)

  test('a call beyond the limit gets 429, Retry-After and a -32005 error', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, rateLimit: 3 })
    const url = proxy.url
    const responses = await Promise.all([1, 2, 3, 4].map(() => send(url, chainId)))
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 429])
    const refused = responses.find((response) => response.status === 429) as Response
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(await refused.text()).toMatchInlineSnapshot(`"{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"rate limit exceeded"}}"`)
    expect(proxy.counts.rateLimited).toBe(1)
    expect(proxy.peakCallsPerSecond()).toBe(4)
  })

  test('each call of a batch counts; a batch that does not fit is refused whole', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, rateLimit: 4 })
    const first = send(proxy.url, [chainId, { ...chainId, id: 2 }])
    await admitted(2)
    const response = await send(proxy.url, [chainId, { ...chainId, id: 2 }, { ...chainId, id: 3 }])
    expect(response.status).toBe(429)
    expect(await response.text()).toMatchInlineSnapshot(
      `"[{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"rate limit exceeded"}},{"jsonrpc":"2.0","id":2,"error":{"code":-32005,"message":"rate limit exceeded"}},{"jsonrpc":"2.0","id":3,"error":{"code":-32005,"message":"rate limit exceeded"}}]"`,
    )
    // Refused calls use up nothing: two more still fit in the second.
    const last = send(proxy.url, [chainId, { ...chainId, id: 2 }])
    expect((await first).status).toBe(200)
    expect((await last).status).toBe(200)
    expect(proxy.counts.rateLimited).toBe(1)
    expect(proxy.peakCallsPerSecond()).toBe(7)
  })

  test('the window slides: after a second the calls are served again', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, rateLimit: 2 })
    const first = send(proxy.url, [chainId, { ...chainId, id: 2 }])
    await admitted(2)
    expect((await send(proxy.url, chainId)).status).toBe(429)
    await new Promise((resolve) => setTimeout(resolve, 1_050))
    expect((await send(proxy.url, chainId)).status).toBe(200)
    expect((await first).status).toBe(200)
  })

  test('peakCallsPerSecond: a client pacing itself stays under the limit', async () => {
    proxy = await startFaultProxy({ target: rpcUrl, rateLimit: 10 })
    const url = proxy.url
    // Paced by when requests are sent, not by when the node answers them.
    const responses: Promise<Response>[] = []
    for (let request = 0; request < 15; request += 1) {
      responses.push(send(url, chainId))
      await new Promise((resolve) => setTimeout(resolve, 120))
    }
    for (const response of await Promise.all(responses)) expect(response.status).toBe(200)
    expect(proxy.peakCallsPerSecond()).toBeLessThanOrEqual(10)
    expect(proxy.peakCallsPerSecond()).toBeGreaterThanOrEqual(5)
    expect(proxy.counts.rateLimited).toBe(0)
  })
})
