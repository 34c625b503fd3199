import { keccak256, stringToHex, type Hash } from 'viem'
import { expect, test } from 'vitest'
import { createLiveFeed } from '../../server/feed/createLiveFeed.ts'
import { parseFeedCursor } from '../../server/feed/feedCursor.ts'
import { toFeedFilter } from '../../server/feed/FeedFilter.ts'
import type { StoreBatch, StoreReader } from '../../server/store/StoreReader.ts'

// The feed's bookkeeping over a store driven by hand: branches, reorgs on top of reorgs, a
// journal that forgets, and an index that is cleared. The frames are read back as a client would.

type Frame = { id: string | undefined; event: string; data: any }

function hashOf(branch: string, block: number): Hash {
  return keccak256(stringToHex(`${branch} ${block}`))
}

/** A store with one service, updated by a log in each block applied; blocks come and go as on a chain. */
function createHandStore() {
  const listeners = new Set<(batch: StoreBatch) => void>()
  const recentBlocks = new Map<bigint, Hash>()
  const sync: { cursor: { number: bigint; hash: Hash } | undefined; backfilledAt: number | undefined } = { cursor: undefined, backfilledAt: 1 }
  let events: { event: string; blockNumber: string; logIndex: number }[] = []
  const store = {
    sync,
    recentBlocks,
    job: () => undefined,
    service: (id: bigint) => (id === 1n && events.length > 0 ? { serviceId: '1', seller: '0x0000000000000000000000000000000000000001', modelId: `model at ${events.at(-1)?.blockNumber}` } : undefined),
    serviceEvents: (id: bigint) => (id === 1n ? events : undefined),
    watchBatches(listener: (batch: StoreBatch) => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  } as unknown as StoreReader
  const end = (serviceIds: bigint[]): void => {
    for (const listener of listeners) listener({ serviceIds, jobIds: [] })
  }
  return {
    store,
    apply(branch: string, block: number) {
      events = [...events.filter(({ blockNumber }) => Number(blockNumber) < block), { event: block === 1 ? 'ServiceRegistered' : 'ServiceUpdated', blockNumber: String(block), logIndex: 0 }]
      sync.cursor = { number: BigInt(block), hash: hashOf(branch, block) }
      recentBlocks.set(BigInt(block), hashOf(branch, block))
      end([1n])
    },
    rollBack(block: number) {
      for (const number of recentBlocks.keys()) if (number > BigInt(block)) recentBlocks.delete(number)
      events = events.filter(({ blockNumber }) => Number(blockNumber) <= block)
    },
    clear() {
      recentBlocks.clear()
      sync.cursor = undefined
      sync.backfilledAt = undefined
      events = []
      end([])
    },
  }
}

function parseFrames(text: string): Frame[] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => {
      const field = (name: string) => block.split('\n').find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2)
      return { id: field('id'), event: field('event') as string, data: JSON.parse(field('data') as string) }
    })
}

function openStream(feed: ReturnType<typeof createLiveFeed>, after?: string) {
  let text = ''
  let ended = false
  const opening = feed.open({
    cursor: after === undefined ? undefined : parseFeedCursor(after),
    subscriber: { filter: toFeedFilter({}), send: (frame) => void (text += frame), end: () => void (ended = true) },
  })
  text += opening.replay.join('')
  return { frames: () => parseFrames(text), ended: () => ended }
}

const headId = (branch: string, block: number) => `31337-${block}-${hashOf(branch, block).slice(2, 18)}-h`

test('a client away across two reorgs, the second below the first one\'s ancestor, resumes with one reorg to the deeper ancestor', () => {
  const chain = createHandStore()
  const feed = createLiveFeed({ store: chain.store, chainId: 31337, journal: { maxEntries: 1_000, maxChars: 1_000_000 } })
  chain.apply('a', 1)
  expect(feed.ready).toBe(true)
  for (const block of [2, 3, 4, 5]) chain.apply('a', block)
  const live = openStream(feed, headId('a', 1))
  expect(live.frames().filter(({ event }) => event === 'head').map(({ id }) => id)).toEqual([2, 3, 4, 5].map((block) => headId('a', block)))

  chain.rollBack(3)
  for (const block of [4, 5, 6]) chain.apply('b', block)
  chain.rollBack(2)
  for (const block of [3, 4, 5, 6, 7]) chain.apply('c', block)

  const resumed = openStream(feed, headId('a', 5)).frames()
  expect(resumed[0]).toEqual({ id: undefined, event: 'reorg', data: { ancestor: { blockNumber: '2', blockHash: hashOf('a', 2) }, depth: 3 } })
  expect(resumed[1]).toMatchObject({ id: undefined, event: 'service', data: { change: 'updated', serviceId: '1', service: { modelId: 'model at 7' } } })
  expect(resumed.slice(2).filter(({ event }) => event === 'head').map(({ id }) => id)).toEqual([3, 4, 5, 6, 7].map((block) => headId('c', block)))
  // The stream that stayed saw each reorg as it came, then the branch: its last word is the chain's.
  const seen = live.frames()
  expect(seen.filter(({ event }) => event === 'reorg').map(({ data }) => [data.ancestor.blockNumber, data.depth])).toEqual([
    ['3', 2],
    ['2', 4],
  ])
  expect(seen.at(-1)).toMatchObject({ event: 'head', id: headId('c', 7) })
  expect(seen.findLast(({ event }) => event === 'service')?.data.service.modelId).toBe('model at 7')
})

test('an id older than what the journal keeps gets a reset naming the kept range; one still kept replays exactly what followed', () => {
  const chain = createHandStore()
  const feed = createLiveFeed({ store: chain.store, chainId: 31337, journal: { maxEntries: 6, maxChars: 1_000_000 } })
  for (let block = 1; block <= 10; block += 1) chain.apply('a', block)
  const tooOld = openStream(feed, headId('a', 3)).frames()
  expect(tooOld).toHaveLength(1)
  expect(tooOld[0]).toMatchObject({ event: 'reset', data: { reason: 'cursor_too_old', cursor: headId('a', 10) }, id: headId('a', 10) })
  const kept = openStream(feed, headId('a', 8)).frames()
  expect(kept.map(({ event, id }) => [event, id])).toEqual([
    ['service', '31337-9-' + hashOf('a', 9).slice(2, 18) + '-0'],
    ['head', headId('a', 9)],
    ['service', '31337-10-' + hashOf('a', 10).slice(2, 18) + '-0'],
    ['head', headId('a', 10)],
  ])
})

test('an indexer restarted (its journal lost) that holds no hash of the id\'s block, below its first head: the id is too old, not off the chain', () => {
  const chain = createHandStore()
  const feed = createLiveFeed({ store: chain.store, chainId: 31337, journal: { maxEntries: 100, maxChars: 1_000_000 } })
  // A back-fill in one window: the store keeps the hash of its last block only.
  chain.apply('a', 5)
  expect(openStream(feed, headId('a', 3)).frames()).toMatchObject([{ event: 'reset', data: { reason: 'cursor_too_old', cursor: headId('a', 5) }, id: headId('a', 5) }])
})

test('an index cleared to back-fill again ends every stream, and the feed starts over once it has caught up', () => {
  const chain = createHandStore()
  const feed = createLiveFeed({ store: chain.store, chainId: 31337, journal: { maxEntries: 100, maxChars: 1_000_000 } })
  chain.apply('a', 1)
  chain.apply('a', 2)
  const stream = openStream(feed)
  chain.clear()
  expect(stream.ended()).toBe(true)
  expect(feed.ready).toBe(false)
  expect(feed.streams).toBe(0)
  ;(chain.store.sync as { backfilledAt: number | undefined }).backfilledAt = 2
  chain.apply('d', 1)
  expect(feed.ready).toBe(true)
  expect(openStream(feed, headId('a', 2)).frames()[0]).toMatchObject({ event: 'reset', data: { reason: 'unknown_block' } })
})
