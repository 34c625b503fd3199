import { existsSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { registryAbi } from '../../chain/abi/registry.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { devnetMnemonic } from '../../devnet/seed/seedAccounts.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { startFaultProxy } from '../support/faultProxy.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { openEventStream, type OpenedEventStream } from '../support/openEventStream.ts'
import { registerHostileService } from '../support/registerHostileService.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { httpRequest } from './httpRequest.ts'
import { projectRoot, spawnEntryPoint, type SpawnedEntryPoint } from './spawnEntryPoint.ts'

// The live feed's limits on `npm run serve` as an operator starts it, at the default settings no
// test sets (--max-client-streams 8, --max-streams 256, 1 Mi characters of unsent text), against a
// devnet of this file's own. Clients are told apart by the loopback address their sockets are
// bound to (this file's own: 127.0.0.11–15 and 127.0.1.1–33; files run side by side).

const defaultClientStreams = 8
const defaultStreams = 256
/** The hostile seller's account, and its service's strings: control characters, each sent as `\u0001` (6 characters) in every event about it. */
const sellerIndex = 12
const longText = '\u0001'.repeat(10_000)

let devnet: StartDevnetReturnType
let serve: SpawnedEntryPoint
let origin: string
let serviceId: bigint

beforeAll(async () => {
  expect(existsSync(join(projectRoot, 'dist/app/serve.js')), 'run `npx tsup --env.only app`').toBe(true)
  devnet = await startTestDevnet({ seed: false })
  ;({ serviceId } = await registerHostileService({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment, accountIndex: sellerIndex, modelId: longText, providerIdentity: longText }))
  const port = await getFreePort()
  origin = `http://127.0.0.1:${port}`
  serve = spawnEntryPoint(['dist/app/serve.js', '--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment), '--port', String(port)])
  await serve.waitFor(/serving on http:\/\/127\.0\.0\.1:\d+/)
  while ((await httpRequest(origin, '/readyz')).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
})

afterAll(async () => {
  // The devnet stops whatever the server's exit, so a failed start leaves no node behind.
  const code = await serve?.stop()
  await devnet?.stop()
  if (serve !== undefined) expect(code).toBe(0)
})

async function open(localAddress: string, query = '', headers: Record<string, string> = {}, base = origin): Promise<OpenedEventStream> {
  const stream = await openEventStream(`${base}/v1/events${query}`, { localAddress, headers })
  // A refusal's body is whole once its answer has ended.
  if (stream.status !== 200) await stream.ended
  return stream
}

function openMany(localAddress: string, count: number): Promise<OpenedEventStream[]> {
  return Promise.all(Array.from({ length: count }, () => open(localAddress)))
}

/** A refusal sent before any stream header: JSON in the API's error shape, with Retry-After and CORS. */
function expectRefusal(answer: OpenedEventStream, { status, retryAfter }: { status: number; retryAfter: string }): { code: string; message: string } {
  expect(answer.status).toBe(status)
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(answer.headers['x-accel-buffering']).toBeUndefined()
  expect(answer.headers['retry-after']).toBe(retryAfter)
  expect(answer.headers['access-control-allow-origin']).toBe('*')
  return (JSON.parse(answer.text) as { error: { code: string; message: string } }).error
}

test('default: the 9th stream from one address is a JSON 429 with Retry-After, before any stream header; other addresses get theirs', async () => {
  const held = await openMany('127.0.0.11', defaultClientStreams)
  try {
    expect(held.map(({ status }) => status)).toEqual(Array(defaultClientStreams).fill(200))
    const refused = await open('127.0.0.11')
    expect(expectRefusal(refused, { status: 429, retryAfter: '10' })).toEqual({
      code: 'too_many_streams',
      message: 'This address holds 8 streams, the most one client may open; one stream can filter for many jobs (jobs=1,2,3). Retry after 10 s.',
    })
    const neighbour = await openMany('127.0.0.12', defaultClientStreams)
    held.push(...neighbour)
    expect(neighbour.map(({ status }) => status)).toEqual(Array(defaultClientStreams).fill(200))
    // A stream given up frees its place.
    held.shift()?.close()
    await expect.poll(async () => {
      const again = await open('127.0.0.11')
      if (again.status === 200) held.push(again)
      return again.status
    }).toBe(200)
  } finally {
    for (const stream of held) stream.close()
  }
})

test('the 257th stream, from yet another address, is a 429 too_many_streams; REST answers meanwhile', async () => {
  const addresses = Array.from({ length: defaultStreams / defaultClientStreams }, (_, index) => `127.0.1.${index + 1}`)
  const held: OpenedEventStream[] = []
  try {
    // The streams of the test before are closed by now: retried until every one of these is served.
    await expect.poll(async () => {
      for (const stream of held.splice(0)) stream.close()
      for (const address of addresses) held.push(...(await openMany(address, defaultClientStreams)))
      return held.filter(({ status }) => status === 200).length
    }).toBe(defaultStreams)
    const refused = await open('127.0.1.33')
    expect(expectRefusal(refused, { status: 429, retryAfter: '10' })).toEqual({
      code: 'too_many_streams',
      message: 'This server holds 256 streams, the most it serves; one stream can filter for many jobs (jobs=1,2,3). Retry after 10 s.',
    })
    for (const path of ['/v1/stats', `/v1/services/${serviceId}`, '/readyz']) expect((await httpRequest(origin, path)).status, path).toBe(200)
  } finally {
    for (const stream of held) stream.close()
  }
})

test('400 for a bad filter, a bad ?after= and a bad Last-Event-ID, in the API error shape', async () => {
  const refusals = await Promise.all([
    open('127.0.0.15', '?seller=0x1234'),
    open('127.0.0.15', '?types=job,block'),
    open('127.0.0.15', '?jobs=1,x'),
    open('127.0.0.15', '?window=5'),
    open('127.0.0.15', '?after=yesterday'),
    open('127.0.0.15', '', { 'last-event-id': '31337-1-zz-1' }),
  ])
  const errors = refusals.map((answer) => {
    expect(answer.status).toBe(400)
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8')
    return (JSON.parse(answer.text) as { error: { code: string; message: string } }).error
  })
  expect(errors.map(({ code }) => code)).toEqual(['invalid_parameter', 'invalid_parameter', 'invalid_parameter', 'unknown_parameter', 'invalid_parameter', 'invalid_parameter'])
  expect(errors[0]?.message).toContain('"seller"')
  expect(errors[1]?.message).toContain('Expected event types from job, service')
  expect(errors[4]?.message).toContain('"after"')
  expect(errors[5]?.message).toContain('Last-Event-ID')
})

describe('a client that stops reading', () => {
  /** The stream's request over a raw socket that reads the answer's head and then nothing more. */
  function openNonReader(localAddress: string, path: string): Promise<{ socket: Socket; head: string }> {
    return new Promise((resolve, reject) => {
      const { port } = new URL(origin)
      const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress })
      let head = ''
      const onData = (chunk: Buffer): void => {
        head += chunk.toString('latin1')
        if (!head.includes('retry: 3000')) return
        socket.off('data', onData)
        socket.pause()
        resolve({ socket, head })
      }
      socket.on('data', onData)
      socket.once('error', reject)
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`)
    })
  }

  function cutLines(): { client?: string; msg?: string }[] {
    return serve
      .output()
      .split('\n')
      .filter((line) => line.includes('event stream cut'))
      .map((line) => JSON.parse(line) as { client?: string; msg?: string })
  }

  test('is cut once its unsent text passes the bound, while a reading stream gets every event, in order', async () => {
    const path = `/v1/events?serviceId=${serviceId}`
    const chain = { ...hardhat, rpcUrls: { default: { http: [devnet.rpcUrl] } } }
    const seller = createWalletClient({ chain, transport: http(devnet.rpcUrl), account: mnemonicToAccount(devnetMnemonic, { addressIndex: sellerIndex }) })
    const reads = createPublicClient({ chain, transport: http(devnet.rpcUrl), pollingInterval: 20 })
    const reader = await open('127.0.0.13', `?serviceId=${serviceId}`)
    const { socket, head } = await openNonReader('127.0.0.14', path)
    try {
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
      // Each update is an event of about 120,000 characters (the record with both strings) to each stream.
      let price = 0n
      const update = async (): Promise<void> => {
        price += 1n
        const hash = await seller.writeContract({ address: devnet.deployment.registry, abi: registryAbi, functionName: 'updateService', args: [serviceId, parseEther('0.001') + price, true] })
        await reads.waitForTransactionReceipt({ hash })
      }
      while (cutLines().length === 0 && price < 400n) await update()
      for (let more = 0; more < 3; more++) await update()
      expect(cutLines()).toEqual([expect.objectContaining({ client: '127.0.0.14', msg: 'event stream cut: its client stopped reading' })])

      // Read at last: what the kernel held, then the end the server gave it (never the chunked body's last chunk).
      let rest = ''
      socket.on('data', (chunk: Buffer) => (rest += chunk.toString('latin1')))
      const closed = new Promise<string>((resolve) => {
        socket.once('end', () => resolve('end'))
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
      })
      socket.resume()
      expect(['end', 'ECONNRESET']).toContain(await closed)
      expect(rest.endsWith('\r\n0\r\n\r\n')).toBe(false)
      const lastPrice = (parseEther('0.001') + price).toString()
      expect(rest).not.toContain(`"pricePerCall":"${lastPrice}"`)

      // The reading stream got the last state, and every event the feed sent, in order: the same
      // events, ids and records, as the feed's own journal replays after the reader's first id.
      await reader.waitFor(({ event, data }) => event === 'service' && data.service?.pricePerCall === lastPrice)
      const received = reader.events.map(({ id, event, data }) => ({ id, event, data }))
      const [first, ...after] = received
      const replay = await open('127.0.0.13', `?serviceId=${serviceId}&after=${first?.id}`)
      try {
        await replay.waitFor(({ id }) => id === received.at(-1)?.id)
        const replayed = replay.events.map(({ id, event, data }) => ({ id, event, data }))
        expect(replayed.slice(0, after.length)).toEqual(after)
      } finally {
        replay.close()
      }
      expect(after.filter(({ event }) => event === 'service').length).toBeGreaterThan(1)
    } finally {
      reader.close()
      socket.destroy()
    }
  })
})

describe('while the indexer back-fills', () => {
  test('the stream is a 503 feed_not_ready with Retry-After, as /readyz is 503', async () => {
    // Every eth_getLogs answer holding a log is held for ten minutes: the back-fill cannot finish.
    const proxy = await startFaultProxy({ target: devnet.rpcUrl, slowLogsAbove: 0, delayMs: 600_000 })
    const port = await getFreePort()
    const backfilling = spawnEntryPoint(['dist/app/serve.js', '--network', 'devnet', '--rpc-url', proxy.url, ...deploymentArgv(devnet.deployment), '--port', String(port)])
    try {
      await backfilling.waitFor(/serving on http:\/\/127\.0\.0\.1:\d+/)
      await expect.poll(() => proxy.counts.slowLogs).toBeGreaterThan(0)
      const answer = await open('127.0.0.15', '', {}, `http://127.0.0.1:${port}`)
      expect(expectRefusal(answer, { status: 503, retryAfter: '5' })).toEqual({
        code: 'feed_not_ready',
        message: 'The live feed starts once the indexer has caught up with the chain (see /healthz). Retry after 5 s.',
      })
      expect((await httpRequest(`http://127.0.0.1:${port}`, '/readyz')).status).toBe(503)
    } finally {
      // The proxy first: its held answers fail, so the poll in flight ends and the server stops at once.
      await proxy.stop()
      expect(await backfilling.stop()).toBe(0)
    }
  })
})
