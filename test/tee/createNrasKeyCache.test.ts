import { type KeyObject, generateKeyPairSync } from 'node:crypto'
import { expect, test } from 'vitest'
import { createNrasKeyCache } from '../../tee/createNrasKeyCache.ts'

const key = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey
const rotated = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey

/** A key set that changes when the test says so, counting its fetches, on a clock the test moves. */
function setup() {
  const state = { sets: [new Map<string, KeyObject>([['a', key]])], fetches: 0, now: 0 }
  const cache = createNrasKeyCache({
    fetchKeys: async () => {
      state.fetches++
      return state.sets[0]!
    },
    now: () => state.now,
  })
  return { state, cache }
}

test('default: one fetch serves an hour of lookups, shared by concurrent callers', async () => {
  const { state, cache } = setup()
  expect(await Promise.all([cache.keyFor('a'), cache.keyFor('a')])).toEqual([key, key])
  state.now = 59 * 60_000
  expect(await cache.keyFor('a')).toBe(key)
  expect(state.fetches).toBe(1)
  state.now = 60 * 60_000
  await cache.keyFor('a')
  expect(state.fetches).toBe(2)
})

test('a key id the set lacks fetches it again, at most once a minute (a rotation)', async () => {
  const { state, cache } = setup()
  await cache.keyFor('a')
  state.sets[0] = new Map([['b', rotated]])
  expect(await cache.keyFor('b')).toBeUndefined()
  expect(state.fetches).toBe(1)
  state.now = 60_000
  expect(await cache.keyFor('b')).toBe(rotated)
  expect(await cache.keyFor('c')).toBeUndefined()
  expect(state.fetches).toBe(2)
})

test('a failed fetch throws its error and is tried again on the next lookup', async () => {
  let fail = true
  const cache = createNrasKeyCache({ fetchKeys: async () => (fail ? Promise.reject(new Error('NRAS down')) : new Map([['a', key]])) })
  await expect(cache.keyFor('a')).rejects.toThrow('NRAS down')
  fail = false
  expect(await cache.keyFor('a')).toBe(key)
})
