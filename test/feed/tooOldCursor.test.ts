import { expect, test } from 'vitest'
import { createLiveFeed } from '../../server/feed/createLiveFeed.ts'
import { toFeedFilter } from '../../server/feed/FeedFilter.ts'
import { parseFeedCursor } from '../../server/feed/feedCursor.ts'
import { createStore } from '../../server/store/createStore.ts'

// An id older than the events the feed keeps, whose block the store holds no hash of any more
// (a client back after a long while, or after the indexer restarted): it cannot be checked
// against the chain, but it is too old to replay whatever branch it was on.

const hash = (digit: string): `0x${string}` => `0x${digit.repeat(64)}`

test('default: an id below the kept events and the recent blocks gets a reset, cursor_too_old', () => {
  const store = createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet' })
  const feed = createLiveFeed({ store, chainId: 31337, journal: { maxEntries: 100, maxChars: 1_000_000 } })
  // Back-filled to block 100 (the feed starts there), then block 101.
  store.advance({ number: 100n, hash: hash('a') })
  store.polled({ headBlock: 100n, at: 1 })
  store.advance({ number: 101n, hash: hash('b') })
  store.polled({ headBlock: 101n, at: 2 })
  expect(feed.ready).toBe(true)
  const opening = feed.open({ cursor: parseFeedCursor('31337-60-30bb00f46f6433e3-h'), subscriber: { filter: toFeedFilter({}), send: () => undefined, end: () => undefined } })
  expect(opening.replay).toHaveLength(1)
  const [frame] = opening.replay
  expect(frame).toMatch(/^id: 31337-101-bbbbbbbbbbbbbbbb-h\nevent: reset\n/)
  expect(JSON.parse(frame?.split('data: ')[1] ?? '')).toEqual({
    reason: 'cursor_too_old',
    message: "The id given is older than the events kept, and than the blocks this indexer can check it against. This indexer keeps the events after block 100. Read the REST API again, then resume after this event's id.",
    cursor: '31337-101-bbbbbbbbbbbbbbbb-h',
  })
  opening.close()
  feed.stop()
})
