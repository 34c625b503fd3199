import type { EventSourceMessage } from 'eventsource-parser'
import { readEventStream } from '../../client/readEventStream.ts'
import { sleep } from '../../client/sleep.ts'
import { type FeedEvent, FeedEventSchema, feedEventTypes } from '../../contract/feed.ts'
import { parseRetryAfter } from '../../contract/parseRetryAfter.ts'
import { IndexerFeedError } from '../../errors/seller.ts'

export type FollowIndexerFeedParameters = {
  /** The REST indexer's base URL, e.g. `http://127.0.0.1:8080`. */
  indexerUrl: string
  /** `GET /v1/events`'s filters (`seller`, `serviceId`, `types`, ...). */
  filters: Record<string, string>
  /** Resume after this event id; undefined starts from now. */
  after: string | undefined
  /** Ends the iteration when aborted, also while connecting or waiting. */
  signal: AbortSignal
  /** Deadline for the answer's status and headers (default 10,000 ms). */
  connectTimeoutMs?: number
  /** Silence after which a stream counts as lost: the indexer sends a comment every 15 s (default 45,000 ms). */
  idleTimeoutMs?: number
  /** One line when the feed cannot be followed (once per distinct problem), and one when it is followed again. */
  log: (line: string) => void
}

/**
 * `open`: a stream was accepted, resuming after `after` (undefined: from now on, so the changes
 * before it are not known from the feed); `event`: one event, checked against the contract.
 */
export type IndexerFeedItem = { type: 'open'; after: string | undefined } | { type: 'event'; event: FeedEvent }

export type FollowIndexerFeedReturnType = AsyncGenerator<IndexerFeedItem, void, undefined>

/** An event longer than this is refused rather than held: a job's whole history is far shorter. */
const maxEventChars = 4 * 1024 * 1024
/** A `Retry-After` beyond this is not believed: the seller asks again after it. */
const maxRetryAfterMs = 300_000
const maxBackoffMs = 30_000
/** Even a `Retry-After: 0` waits this long: a refusing indexer is never asked in a tight loop. */
const minWaitMs = 500
/** A stream that ends sooner than this without an event counts as a failure, so a feed that keeps closing is not asked in a tight loop. */
const shortLivedMs = 3_000

/**
 * Follows an indexer's live feed (`GET /v1/events`, Server-Sent Events on `fetch`, parsed by
 * eventsource-parser) across connections, resuming with `Last-Event-ID` after the last id
 * received, so an event is seen again at most after a drop, never missed. Nothing ends it but the
 * signal: an unreachable, silent, refusing or malformed indexer is logged and asked again, after
 * its `Retry-After` (429, 503) or a back-off (1 s doubling to 30 s). Kept in the seller's folder:
 * the typed client's `client.events` can take its place.
 */
export async function* followIndexerFeed({
  indexerUrl,
  filters,
  after,
  signal,
  connectTimeoutMs = 10_000,
  idleTimeoutMs = 45_000,
  log,
}: FollowIndexerFeedParameters): FollowIndexerFeedReturnType {
  const url = `${indexerUrl.replace(/\/+$/, '')}/v1/events?${new URLSearchParams(filters)}`
  let lastId = after
  let failures = 0
  let reported: string | undefined
  while (!signal.aborted) {
    const attempt = new AbortController()
    const abort = (): void => attempt.abort()
    signal.addEventListener('abort', abort, { once: true })
    let timer: NodeJS.Timeout | undefined
    let expired: string | undefined
    const deadline = (milliseconds: number, problem: string): void => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        expired = problem
        attempt.abort()
      }, milliseconds)
    }
    const openedAt = Date.now()
    let delivered = false
    let failure: IndexerFeedError | undefined
    try {
      deadline(connectTimeoutMs, `gave no answer within ${connectTimeoutMs / 1_000} s`)
      const body = await openStream(url, { indexerUrl, lastId, signal: attempt.signal })
      if (reported !== undefined) log(`The indexer's feed at ${indexerUrl} is followed again.`)
      reported = undefined
      clearTimeout(timer)
      yield { type: 'open', after: lastId }
      const alive = (): void => deadline(idleTimeoutMs, `sent nothing for ${idleTimeoutMs / 1_000} s`)
      alive()
      for await (const item of readEventStream(body, { onChunk: alive, maxEventLength: maxEventChars })) {
        if (item.type !== 'event') continue
        const { message } = item
        const event = parseEvent(message, indexerUrl)
        // The consumer's time is not the indexer's silence.
        clearTimeout(timer)
        if (event !== undefined) yield { type: 'event', event }
        if (message.id !== undefined && message.id !== '') lastId = message.id
        delivered = true
        alive()
      }
      if (!delivered && Date.now() - openedAt < shortLivedMs) failure = new IndexerFeedError({ url: indexerUrl, problem: 'ended the stream at once' })
    } catch (error) {
      if (signal.aborted) return
      failure =
        expired !== undefined
          ? new IndexerFeedError({ url: indexerUrl, problem: expired })
          : error instanceof IndexerFeedError
            ? error
            : new IndexerFeedError({ url: indexerUrl, problem: `could not be read: ${describeCause(error)}`, cause: error })
    } finally {
      clearTimeout(timer)
      attempt.abort()
      signal.removeEventListener('abort', abort)
    }
    if (failure === undefined) {
      // The indexer ended a stream that lived (its lifetime): resume at once.
      failures = 0
      continue
    }
    failures = delivered ? 1 : failures + 1
    const wait = Math.max(minWaitMs, Math.min(failure.retryAfterMs ?? Math.min(1_000 * 2 ** (failures - 1), maxBackoffMs), maxRetryAfterMs))
    if (failure.message !== reported) {
      log(`${failure.message} Trying again in ${Math.ceil(wait / 1_000)} s, ${lastId === undefined ? 'from now on' : `resuming after ${lastId}`}.`)
    }
    reported = failure.message
    await sleep(wait, signal)
  }
}

/** One request for the stream: its body once the indexer answers 200 with an event stream; throws IndexerFeedError otherwise. */
async function openStream(
  url: string,
  { indexerUrl, lastId, signal }: { indexerUrl: string; lastId: string | undefined; signal: AbortSignal },
): Promise<ReadableStream<Uint8Array>> {
  const headers: Record<string, string> = { accept: 'text/event-stream' }
  if (lastId !== undefined) headers['last-event-id'] = lastId
  const response = await fetch(url, { headers, signal })
  const type = response.headers.get('content-type') ?? ''
  if (response.status === 200 && response.body !== null && /^text\/event-stream\s*(;|$)/i.test(type)) return response.body
  const code = await readErrorCode(response)
  const retryAfterMs = [429, 503].includes(response.status) ? parseRetryAfter(response.headers.get('retry-after')) : undefined
  const problem =
    response.status === 200
      ? `answered ${type === '' ? 'with no content type' : `"${type}"`}, not an event stream`
      : `answered HTTP ${response.status}${code === undefined ? '' : ` (${code})`}${response.status === 404 ? ': it has no live feed (GET /v1/events)' : ''}`
  throw new IndexerFeedError({ url: indexerUrl, problem, retryAfterMs })
}

/** The `error.code` of a refusal in the API's shape, read from at most its first 4 KB. */
async function readErrorCode(response: Response): Promise<string | undefined> {
  const reader = response.body?.getReader()
  if (reader === undefined) return undefined
  let text = ''
  try {
    const decoder = new TextDecoder()
    while (text.length < 4_096) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    return undefined
  } finally {
    reader.cancel().catch(() => undefined)
  }
  const code = /"code"\s*:\s*"([a-z0-9_]{1,64})"/.exec(text)?.[1]
  return code
}

/** The event a message carries, checked against the contract; undefined for an event type this seller does not know (a newer indexer's). */
function parseEvent({ event, id, data }: EventSourceMessage, indexerUrl: string): FeedEvent | undefined {
  if (!(feedEventTypes as readonly (string | undefined)[]).includes(event)) return undefined
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch (cause) {
    throw new IndexerFeedError({ url: indexerUrl, problem: `sent a ${event} event whose data is not JSON`, cause })
  }
  const parsed = FeedEventSchema.safeParse({ event, ...(id === undefined ? {} : { id }), data: json })
  if (!parsed.success) throw new IndexerFeedError({ url: indexerUrl, problem: `sent a ${event} event the API's contract does not allow`, cause: parsed.error })
  return parsed.data
}

/** The innermost message of an error's cause chain: fetch's "fetch failed" says less than its cause's "connect ECONNREFUSED ...". */
function describeCause(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error)
  for (let link: unknown = error; link instanceof Error; link = link.cause) if (link.message !== '') message = link.message
  return message.split('\n')[0] ?? message
}
