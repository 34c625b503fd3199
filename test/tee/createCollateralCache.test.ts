import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { TeeCollateral } from '../../contract/tee.ts'
import { type CollateralEntry, createCollateralCache } from '../../tee/createCollateralCache.ts'
import { createFileCollateralStore } from '../../tee/createFileCollateralStore.ts'
import { createMemoryCollateralStore } from '../../tee/createMemoryCollateralStore.ts'
import { fetchCollateral, type FetchCollateralParameters } from '../../tee/fetchCollateral.ts'
import { readCollateral } from './support/fixtures.ts'
import { type PcsServer, startPcsServer } from './support/startPcsServer.ts'

const hour = 3_600_000
const day = 24 * hour
const key = { fmspc: 'B0C06F000000', ca: 'platform' as const, forSgx: false }
const start = new Date('2025-07-01T00:00:00Z')
const collateral = { tcb_info: 'x' } as unknown as TeeCollateral

/** A clock the test moves, and a fetch it counts and can make fail. */
function harness({ expiresInMs = 10 * day } = {}) {
  let now = start.getTime()
  let failing = false
  const calls: FetchCollateralParameters[] = []
  const fetch = async (parameters: FetchCollateralParameters): Promise<CollateralEntry> => {
    calls.push(parameters)
    await new Promise((resolve) => setTimeout(resolve, 20))
    if (failing) throw new Error('PCS down')
    return { collateral, expiresAt: new Date(now + expiresInMs), fetchedAt: new Date(now) }
  }
  return {
    calls,
    fetch,
    now: () => new Date(now),
    advance: (ms: number) => void (now += ms),
    fail: (value: boolean) => void (failing = value),
  }
}

test('default: concurrent requests for one key share one fetch; another key fetches its own', async () => {
  const h = harness()
  const cache = createCollateralCache({ store: createMemoryCollateralStore(), fetch: h.fetch, now: h.now })
  const entries = await Promise.all(Array.from({ length: 10 }, () => cache.get(key)))
  expect(h.calls).toHaveLength(1)
  expect(new Set(entries).size).toBe(1)
  await Promise.all([cache.get(key), cache.get({ ...key, ca: 'processor' }), cache.get({ ...key, pcsUrl: 'http://pccs.internal:8081' })])
  expect(h.calls).toHaveLength(3)
})

test("a root other than Intel's is part of the key: a restarted devnet's new root behind the same PCCS URL is not served the old root's collateral", async () => {
  const h = harness()
  const store = createMemoryCollateralStore()
  const devnet = { ...key, pcsUrl: 'http://127.0.0.1:8083' }
  const [rootA, rootB] = [Uint8Array.of(0x30, 1), Uint8Array.of(0x30, 2)]
  await createCollateralCache({ store, fetch: h.fetch, now: h.now }).get({ ...devnet, rootCa: rootA })
  // A new process on the same store, as the indexer's database outlives a restart.
  const restarted = createCollateralCache({ store, fetch: h.fetch, now: h.now })
  await restarted.get({ ...devnet, rootCa: rootA })
  expect(h.calls).toHaveLength(1)
  await restarted.get({ ...devnet, rootCa: rootB })
  expect(h.calls).toHaveLength(2)
})

describe('refresh', () => {
  test('before expiry by the margin, and at the greatest age whatever the expiry', async () => {
    const h = harness()
    const cache = createCollateralCache({ store: createMemoryCollateralStore(), fetch: h.fetch, now: h.now, refreshBeforeMs: day, maxAgeMs: 3 * day })
    await cache.get(key)
    h.advance(3 * day - hour)
    await cache.get(key)
    expect(h.calls).toHaveLength(1)
    h.advance(hour)
    await cache.get(key) // 3 days old: fetched again though it expires in 7
    expect(h.calls).toHaveLength(2)
    const short = harness({ expiresInMs: 2 * day })
    const early = createCollateralCache({ store: createMemoryCollateralStore(), fetch: short.fetch, now: short.now, refreshBeforeMs: day, maxAgeMs: 10 * day })
    await early.get(key)
    short.advance(day + 1)
    await early.get(key) // inside the margin of its expiry
    expect(short.calls).toHaveLength(2)
  })

  test('a failed refresh keeps serving the unexpired entry; once it has expired the failure is thrown', async () => {
    const h = harness({ expiresInMs: 2 * day })
    const cache = createCollateralCache({ store: createMemoryCollateralStore(), fetch: h.fetch, now: h.now, refreshBeforeMs: day })
    const first = await cache.get(key)
    h.fail(true)
    h.advance(day + hour)
    expect(await cache.get(key)).toBe(first)
    h.advance(day)
    await expect(cache.get(key)).rejects.toThrow('PCS down')
  })
})

describe('the file store', () => {
  const folder = mkdtempSync(join(tmpdir(), 'tee-collateral-'))
  let pcs: PcsServer
  beforeAll(async () => {
    pcs = await startPcsServer(readCollateral('tdx_quote'), { fmspc: 'B0C06F000000' })
  })
  afterAll(() => pcs.close())

  test("survives a restart: a new cache on the same file serves Intel's collateral without fetching", async () => {
    const path = join(folder, 'collateral.json')
    const at = () => start
    const first = createCollateralCache({ store: createFileCollateralStore({ path }), now: at })
    const fetched = await first.get({ ...key, pcsUrl: pcs.url })
    expect(pcs.requests).toHaveLength(4)
    const restarted = createCollateralCache({ store: createFileCollateralStore({ path }), now: at, fetch: () => Promise.reject(new Error('no fetch expected')) })
    const served = await restarted.get({ ...key, pcsUrl: pcs.url })
    expect(served).toEqual(fetched)
    expect(pcs.requests).toHaveLength(4)
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')))).toEqual([`${pcs.url}|B0C06F000000|platform|tdx`])
  })

  test('a corrupt file reads as empty and is replaced whole', async () => {
    const path = join(folder, 'corrupt.json')
    writeFileSync(path, '{"half":')
    const store = createFileCollateralStore({ path })
    expect(await store.read('k')).toBeUndefined()
    const entry = (await fetchCollateral({ ...key, pcsUrl: pcs.url }))
    await Promise.all([store.write('a', entry), store.write('b', entry)])
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8'))).sort()).toEqual(['a', 'b'])
    expect((await store.read('a'))?.expiresAt).toEqual(entry.expiresAt)
  })
})
