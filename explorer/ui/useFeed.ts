import { useEffect, useMemo, useState } from 'preact/hooks'
import type { EventsQuery, JobFeedData, ServiceFeedData } from '../../contract/feed.ts'

/** A record event of the page's stream, as the reads on the page take it. */
export type FeedRecord = { type: 'job'; data: JobFeedData } | { type: 'service'; data: ServiceFeedData }

/** What a page's stream tells the reads on it: a record changed, the stream's mode changed, or read REST again (`resync`). */
export type FeedMessage = FeedRecord | { type: 'mode' } | { type: 'resync' }

/**
 * `connecting`: no stream yet, or the browser reconnecting by itself; `live`: changes come from the
 * stream; `polling`: the indexer refused the stream (over its cap, back-filling, no feed), so the
 * page reads REST again as it did before the feed, and tries the stream later.
 */
export type FeedMode = 'connecting' | 'live' | 'polling'

export type Feed = {
  readonly mode: FeedMode
  subscribe(listener: (message: FeedMessage) => void): () => void
}

/** The filters of `GET /v1/events` a page uses, as the query sends them. */
export type FeedFilters = Partial<Record<keyof Pick<EventsQuery, 'jobs' | 'seller' | 'serviceId'>, string>>

/** A stream the browser gave up on is tried again after this long, doubled each time up to `maxRetryMs`. */
const firstRetryMs = 3_000
const maxRetryMs = 60_000

/** A stream not open this long after it was asked for (the browser retrying a dropped connection) lets the page poll meanwhile. */
const graceMs = 5_000

/**
 * The page's one live stream (`GET /v1/events` with the page's filters: the indexer caps streams
 * per client), re-rendering the caller when its mode changes. Each job and service event goes to
 * every subscriber; a reorg, a reset, or a stream opened without an id to resume from (whatever
 * changed before it is not replayed) asks them to read REST again. A browser's EventSource gives
 * up on a non-200 answer (429, 503, 404): the page then polls, and opens a new stream after a
 * back-off. A hidden tab holds no stream.
 */
export function useFeed(filters: FeedFilters): Feed {
  const query = new URLSearchParams(filters as Record<string, string>).toString()
  const feed = useMemo(() => createFeed(`/v1/events${query === '' ? '' : `?${query}`}`), [query])
  const [, setMode] = useState(feed.mode)
  useEffect(() => {
    const unsubscribe = feed.subscribe(() => setMode(feed.mode))
    const stop = feed.start()
    return () => {
      unsubscribe()
      stop()
    }
  }, [feed])
  return feed
}

function createFeed(url: string): Feed & { start(): () => void } {
  const listeners = new Set<(message: FeedMessage) => void>()
  let mode: FeedMode = 'connecting'
  const emit = (message: FeedMessage): void => {
    for (const listener of listeners) listener(message)
  }
  const setMode = (next: FeedMode): void => {
    if (next === mode) return
    mode = next
    emit({ type: 'mode' })
  }
  return {
    get mode() {
      return mode
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    start() {
      let source: EventSource | undefined
      let retryMs = firstRetryMs
      let retry: ReturnType<typeof setTimeout> | undefined
      let grace: ReturnType<typeof setTimeout> | undefined
      // Started once while no stream is open, not again by each reconnect the browser tries.
      const wait = (): void => void (grace ??= setTimeout(() => setMode('polling'), graceMs))
      const stopWaiting = (): void => {
        clearTimeout(grace)
        grace = undefined
      }
      const open = (): void => {
        const stream = new EventSource(url)
        source = stream
        // The id the browser sends back when it reconnects by itself (an EventSource does not show it).
        let lastId = ''
        const track = (event: MessageEvent<string>): void => void (lastId = event.lastEventId)
        wait()
        stream.onopen = () => {
          stopWaiting()
          retryMs = firstRetryMs
          const polled = mode === 'polling'
          setMode('live')
          // The browser resumes with Last-Event-ID once it has one, and the stream replays what was
          // missed; the last poll meanwhile may have failed and left an error shown: read again.
          if (lastId === '' || polled) emit({ type: 'resync' })
        }
        const record = (type: FeedRecord['type']) => (event: MessageEvent<string>) => {
          track(event)
          emit({ type, data: JSON.parse(event.data) } as FeedRecord)
        }
        const resync = (event: MessageEvent<string>): void => {
          track(event)
          emit({ type: 'resync' })
        }
        stream.addEventListener('job', record('job'))
        stream.addEventListener('service', record('service'))
        stream.addEventListener('head', track)
        stream.addEventListener('reorg', resync)
        stream.addEventListener('reset', resync)
        stream.onerror = () => {
          if (stream.readyState !== EventSource.CLOSED) {
            // The stream ended or dropped: the browser reconnects by itself, sending the last id.
            if (mode === 'live') setMode('connecting')
            wait()
            return
          }
          stream.close()
          stopWaiting()
          setMode('polling')
          retry = setTimeout(open, retryMs)
          retryMs = Math.min(retryMs * 2, maxRetryMs)
        }
      }
      const close = (): void => {
        source?.close()
        source = undefined
        clearTimeout(retry)
        stopWaiting()
      }
      // A hidden tab gives its connection back (a browser holds six to a server over HTTP/1.1,
      // streams included) and reads nothing; shown again, it opens a stream and reads REST again.
      const follow = (): void => {
        if (!document.hidden) return void (source ?? open())
        close()
        setMode('connecting')
      }
      document.addEventListener('visibilitychange', follow)
      follow()
      return () => {
        document.removeEventListener('visibilitychange', follow)
        close()
      }
    },
  }
}
