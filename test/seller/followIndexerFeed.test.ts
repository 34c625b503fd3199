import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { createCursorFile } from '../../devnet/seller/createCursorFile.ts'
import { followIndexerFeed, type IndexerFeedItem } from '../../devnet/seller/followIndexerFeed.ts'

// The seller's reader of the live feed against an indexer of the test's own that answers each
// request as the test says: what a hostile or broken indexer can do, and what the reader does.

type Answer = (request: IncomingMessage, response: ServerResponse) => void
type Asked = { at: number; lastEventId: string | undefined; url: string }

const headId = (block: number) => `31337-${block}-0123456789abcdef-h`
const headFrame = (block: number) => `id: ${headId(block)}\nevent: head\ndata: ${JSON.stringify({ blockNumber: String(block), blockHash: `0x${'ab'.repeat(32)}` })}\n\n`
const stream = (...frames: string[]): Answer => (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' })
  response.write(`retry: 3000\n\n${frames.join('')}`)
}
const refuse = (status: number, code: string, headers: Record<string, string> = {}): Answer => (_request, response) => {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
  response.end(JSON.stringify({ error: { code, message: `Refused: ${code}.` } }))
}

let server: Server | undefined
const controller = { current: new AbortController() }

afterEach(async () => {
  controller.current.abort()
  server?.closeAllConnections()
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))
  server = undefined
})

/** An indexer answering the nth request with `answers[n]` (the last one after that), and the reader following it. */
async function follow(answers: readonly Answer[]) {
  const asked: Asked[] = []
  server = createServer((request, response) => {
    asked.push({ at: Date.now(), lastEventId: request.headers['last-event-id'] as string | undefined, url: request.url ?? '' })
    ;(answers[asked.length - 1] ?? answers.at(-1))?.(request, response)
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const indexerUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  controller.current = new AbortController()
  const lines: string[] = []
  const items: IndexerFeedItem[] = []
  const reading = (async () => {
    for await (const item of followIndexerFeed({ indexerUrl, filters: { seller: '0x0000000000000000000000000000000000000001', types: 'job' }, after: undefined, signal: controller.current.signal, connectTimeoutMs: 1_000, log: (line) => lines.push(line) })) items.push(item)
  })()
  return { indexerUrl, asked, lines, items, reading }
}

test('default: follows the stream with its filters, and after a drop resumes with Last-Event-ID', async () => {
  const cut: Answer = (request, response) => {
    stream(headFrame(5))(request, response)
    setTimeout(() => response.destroy(), 50)
  }
  const feed = await follow([cut, stream(headFrame(6))])
  await expect.poll(() => feed.items.filter(({ type }) => type === 'event').length).toBe(2)
  expect(feed.asked[0]?.url).toBe('/v1/events?seller=0x0000000000000000000000000000000000000001&types=job')
  expect(feed.asked.map(({ lastEventId }) => lastEventId)).toEqual([undefined, headId(5)])
  expect(feed.items.map((item) => (item.type === 'open' ? ['open', item.after] : [item.event.event, item.event.event === 'head' ? item.event.id : '']))).toEqual([
    ['open', undefined],
    ['head', headId(5)],
    ['open', headId(5)],
    ['head', headId(6)],
  ])
  controller.current.abort()
  await feed.reading
})

describe('refusals', () => {
  test('429 and 503 are asked again after their Retry-After, each problem logged once', async () => {
    const feed = await follow([refuse(429, 'too_many_streams', { 'retry-after': '2' }), refuse(503, 'feed_not_ready', { 'retry-after': '1' }), refuse(503, 'feed_not_ready', { 'retry-after': '1' }), stream(headFrame(5))])
    await expect.poll(() => feed.items.some(({ type }) => type === 'event')).toBe(true)
    const [first, second, third] = feed.asked
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_900)
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(900)
    expect(feed.lines).toEqual([
      `The indexer at "${feed.indexerUrl}" answered HTTP 429 (too_many_streams). Trying again in 2 s, from now on.`,
      `The indexer at "${feed.indexerUrl}" answered HTTP 503 (feed_not_ready). Trying again in 1 s, from now on.`,
      `The indexer's feed at ${feed.indexerUrl} is followed again.`,
    ])
  })

  test('an indexer without the feed (404), or one that answers a page, is named and asked again later', async () => {
    const page: Answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<!doctype html><title>Explorer</title>')
    }
    const feed = await follow([refuse(404, 'not_found'), page, stream(headFrame(5))])
    await expect.poll(() => feed.items.some(({ type }) => type === 'event'), { timeout: 10_000 }).toBe(true)
    expect(feed.lines.slice(0, 2)).toEqual([
      `The indexer at "${feed.indexerUrl}" answered HTTP 404 (not_found): it has no live feed (GET /v1/events). Trying again in 1 s, from now on.`,
      `The indexer at "${feed.indexerUrl}" answered "text/html", not an event stream. Trying again in 2 s, from now on.`,
    ])
  })

  test('an indexer that gives no answer is left at the connect deadline', async () => {
    const feed = await follow([() => {}, stream(headFrame(5))])
    await expect.poll(() => feed.items.some(({ type }) => type === 'event')).toBe(true)
    expect(feed.lines[0]).toBe(`The indexer at "${feed.indexerUrl}" gave no answer within 1 s. Trying again in 1 s, from now on.`)
  })
})

describe('what the stream sends', () => {
  test('an event the contract does not allow is not passed on: the stream is read again after the last good id', async () => {
    const bad = `id: ${headId(6)}\nevent: job\ndata: {"change":"created","jobId":"not a number"}\n\n`
    const feed = await follow([stream(headFrame(5), bad), stream(headFrame(6))])
    await expect.poll(() => feed.asked.length).toBe(2)
    expect(feed.asked[1]?.lastEventId).toBe(headId(5))
    expect(feed.lines[0]).toMatch(/sent a job event the API's contract does not allow\. Trying again in 1 s, resuming after 31337-5-0123456789abcdef-h\.$/)
    expect(feed.items.flatMap((item) => (item.type === 'event' ? [item.event.event] : []))).toEqual(['head', 'head'])
  })

  test('an event longer than 4 Mi characters is not held: the stream is cut and read again', async () => {
    const endless: Answer = (request, response) => {
      stream(headFrame(5))(request, response)
      response.write(`event: job\ndata: ${'x'.repeat(5 * 1024 * 1024)}`)
    }
    const feed = await follow([endless, stream(headFrame(6))])
    await expect.poll(() => feed.asked.length).toBe(2)
    expect(feed.lines[0]).toMatch(/sent an event longer than 4194304 characters\. Trying again in 1 s, resuming after 31337-5-0123456789abcdef-h\.$/)
  })

  test('an event type it does not know (a newer indexer\'s) is skipped, its id kept', async () => {
    const future = `id: ${headId(6)}\nevent: tee\ndata: {}\n\n`
    const cut: Answer = (request, response) => {
      stream(headFrame(5), future)(request, response)
      setTimeout(() => response.destroy(), 50)
    }
    const feed = await follow([cut, stream(headFrame(7))])
    await expect.poll(() => feed.items.filter(({ type }) => type === 'event').length).toBe(2)
    expect(feed.asked[1]?.lastEventId).toBe(headId(6))
    expect(feed.items.flatMap((item) => (item.type === 'event' && 'id' in item.event ? [item.event.id] : []))).toEqual([headId(5), headId(7)])
  })
})

describe('createCursorFile', () => {
  test('default: what is written is read back; no file reads as no cursor', () => {
    const folder = mkdtempSync(join(tmpdir(), 'seller-cursor-'))
    try {
      const file = createCursorFile(join(folder, 'state.json.cursor'), { log: () => {} })
      expect(file.read()).toBe(null)
      file.write(headId(5))
      expect(file.read()).toBe(headId(5))
      expect(readFileSync(join(folder, 'state.json.cursor'), 'utf8')).toBe(`{"cursor":"${headId(5)}"}\n`)
      file.write(null)
      expect(file.read()).toBe(null)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  test('a damaged file reads as no cursor, said once in the log', () => {
    const folder = mkdtempSync(join(tmpdir(), 'seller-cursor-'))
    try {
      const path = join(folder, 'cursor')
      const lines: string[] = []
      writeFileSync(path, '{"cursor":"31337-5-0123')
      expect(createCursorFile(path, { log: (line) => lines.push(line) }).read()).toBe(null)
      writeFileSync(path, '{"cursor":"not an id"}')
      expect(createCursorFile(path, { log: (line) => lines.push(line) }).read()).toBe(null)
      expect(lines).toEqual([
        expect.stringMatching(new RegExp(`^The feed cursor file ${path} is not JSON \\(.+\\): starting from the indexer's Pending jobs\\.$`)),
        `The feed cursor file ${path} holds no event id: starting from the indexer's Pending jobs.`,
      ])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
