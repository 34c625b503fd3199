import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { projectRoot, spawnEntryPoint, type SpawnedEntryPoint } from './spawnEntryPoint.ts'

// `npm run serve -- --host ::1` at its default per-client limits (1200 requests a minute, 64
// connections per client): an IPv6 client is its /64, so moving to another address of the same
// /64 does not renew its allowance, while a client of another /64 is served. The addresses are
// added to the loopback interface for the test (root, as CI runs), and removed after it.

const devnet = inject('devnet')
const flooder = '2001:db8:7::a'
const sameSlash64 = '2001:db8:7::b'
const otherSlash64 = '2001:db8:8::a'
const addresses = [flooder, sameSlash64, otherSlash64]
const defaultRateLimit = 1_200
const defaultConnectionsPerAddress = 64

let serve: SpawnedEntryPoint
let port: number

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' })

beforeAll(async () => {
  expect(existsSync(join(projectRoot, 'dist/app/serve.js')), 'run `npx tsup --env.only app`').toBe(true)
  for (const address of addresses) ip('-6', 'addr', 'replace', `${address}/128`, 'dev', 'lo', 'nodad')
  port = await getFreePort()
  serve = spawnEntryPoint(['dist/app/serve.js', '--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment), '--host', '::1', '--port', String(port)])
  await serve.waitFor(/serving on http:\/\/\[::1\]:\d+/)
})

afterAll(async () => {
  for (const address of addresses) ip('-6', 'addr', 'del', `${address}/128`, 'dev', 'lo')
  expect(await serve.stop()).toBe(0)
})

function get(localAddress: string, agent: Agent | false): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '::1', port, path: '/v1/stats', localAddress, agent, timeout: 5_000 }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    sent.on('timeout', () => sent.destroy(new Error(`GET from ${localAddress}: no answer in 5 s`)))
    sent.on('error', reject)
    sent.end()
  })
}

test('default: a flood from one IPv6 address is refused on every address of its /64, and served on another /64', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 })
  const statuses: number[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < defaultRateLimit) {
        next++
        statuses.push(await get(flooder, agent))
      }
    }),
  )
  agent.destroy()
  expect(statuses.filter((status) => status === 200)).toHaveLength(defaultRateLimit)
  expect(await get(flooder, false)).toBe(429)
  expect(await get(sameSlash64, false)).toBe(429)
  expect(await get(otherSlash64, false)).toBe(200)
})

test('sockets held from one IPv6 address fill the cap of its /64: another address of it is closed at once, another /64 served', async () => {
  const held: Socket[] = []
  const open = (localAddress: string): Promise<'open' | 'closed'> =>
    new Promise((resolve) => {
      const socket = connect({ host: '::1', port, localAddress }, () => {
        held.push(socket)
        // A connection over the cap is destroyed before anything is read: it closes unanswered.
        const timer = setTimeout(() => resolve('open'), 300)
        socket.once('close', () => {
          clearTimeout(timer)
          resolve('closed')
        })
      })
      socket.on('error', () => resolve('closed'))
    })
  try {
    const flooderSockets = await Promise.all(Array.from({ length: defaultConnectionsPerAddress }, () => open(flooder)))
    expect(flooderSockets).toEqual(Array(defaultConnectionsPerAddress).fill('open'))
    expect(await open(sameSlash64)).toBe('closed')
    expect(await open(otherSlash64)).toBe('open')
  } finally {
    for (const socket of held) socket.destroy()
  }
})
