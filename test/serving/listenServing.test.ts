import dns from 'node:dns'
import type { LookupAddress } from 'node:dns'
import Fastify from 'fastify'
import { afterEach, expect, test, vi } from 'vitest'
import { hardenServer } from '../../platform/http/hardenServer.ts'
import { listenServing } from '../../platform/serving/listenServing.ts'

const plainHttp = { tlsCert: null, tlsKey: null, trustProxy: [] }

afterEach(() => {
  vi.restoreAllMocks()
})

test('a name with two addresses (localhost as 127.0.0.1 and ::1) is served by the hardened server alone', async () => {
  // As on most machines, where /etc/hosts gives localhost both addresses (this one gives it one).
  const both: LookupAddress[] = [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ]
  const original = dns.lookup
  vi.spyOn(dns, 'lookup').mockImplementation(((host: string, options: unknown, callback: unknown) => {
    const done = (typeof options === 'function' ? options : callback) as (error: null, ...rest: unknown[]) => void
    if (host !== 'localhost') return (original as (...args: unknown[]) => void)(host, options, callback)
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true
    return all ? done(null, both) : done(null, both[0]?.address, 4)
  }) as typeof dns.lookup)

  const app = Fastify()
  app.get('/', async () => ({ ok: true }))
  hardenServer(app, { methods: ['GET'], limits: { headersTimeoutMs: 1_000 } })
  const { url, unwatch } = await listenServing(app, { host: 'localhost', port: 0, settings: plainHttp })
  try {
    expect(app.addresses().map((bound) => (typeof bound === 'string' ? bound : bound.address))).toEqual(['127.0.0.1'])
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(app.server.headersTimeout).toBe(1_000)
  } finally {
    unwatch()
    await app.close()
  }
})
