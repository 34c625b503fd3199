import { useLayoutEffect, useState } from 'preact/hooks'
import type { Feed, FeedRecord } from './useFeed.ts'

/** What a typed client call resolves to (any route). */
export type ApiAnswer = { status: number; body: unknown; headers: Headers }

/** One API read as the page shows it. `missing` is a 404: the id names nothing. */
export type ApiState<T> =
  | { status: 'loading' }
  | { status: 'missing'; message: string }
  | { status: 'failed'; message: string }
  | { status: 'ready'; data: T }

export type UseApiParameters<T> = {
  /** Read again this often (milliseconds), sending the last ETag so an unchanged answer costs a 304; with a feed, only while it polls. */
  pollMs?: number
  /** The page's stream: a read follows it instead of polling while it is live, and reads again when it asks (a reorg, a reset). */
  feed?: Feed
  /**
   * What one of the stream's records does to what is shown: the state to show (from the record,
   * which is whole), `'reload'` when the record cannot tell (a counter, a list's membership), or
   * undefined when it is not about this read.
   */
  follow?: (record: FeedRecord, state: ApiState<T>) => ApiState<T> | 'reload' | undefined
}

/**
 * Reads one route through the typed client, again whenever `key` changes, and every `pollMs` with
 * `If-None-Match`: the indexer answers 304 with no body until something it serves has changed.
 * With a feed, its records update what is shown (`follow`); a record that lands while a read is
 * on its way makes that read go again when it returns, so an older answer never stays shown.
 */
export function useApi<T>(key: string, read: (headers: Record<string, string>) => Promise<ApiAnswer>, { pollMs, feed, follow }: UseApiParameters<T> = {}): ApiState<T> {
  const [state, setState] = useState<ApiState<T>>({ status: 'loading' })
  // A layout effect starts the read right after the first render, not a frame later.
  useLayoutEffect(() => {
    let stopped = false
    let etag: string | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let reading = false
    let again = false
    let shown: ApiState<T> = { status: 'loading' }
    const show = (next: ApiState<T>): void => {
      shown = next
      setState(next)
    }
    // What is shown is no longer the answer of the last ETag: a 304 to it must not keep the error shown.
    const fail = (problem: ApiState<T>): void => {
      etag = undefined
      show(problem)
    }
    const polls = (): boolean => pollMs !== undefined && (feed === undefined || feed.mode === 'polling')
    show({ status: 'loading' })
    const load = async (): Promise<void> => {
      clearTimeout(timer)
      reading = true
      try {
        const answer = await read(etag === undefined ? {} : { 'if-none-match': etag })
        if (stopped) return
        if (answer.status === 200) {
          etag = answer.headers.get('etag') ?? undefined
          show({ status: 'ready', data: answer.body as T })
        } else if (answer.status !== 304) {
          const message = errorMessage(answer)
          fail(answer.status === 404 ? { status: 'missing', message } : { status: 'failed', message })
        }
      } catch (error) {
        if (!stopped) fail({ status: 'failed', message: `The indexer could not be reached: ${String(error)}` })
      }
      reading = false
      if (stopped) return
      if (again) reload()
      else if (polls()) timer = setTimeout(load, pollMs)
    }
    const reload = (): void => {
      again = reading
      if (!reading) void load()
    }
    const unsubscribe = feed?.subscribe((message) => {
      if (message.type === 'resync') return reload()
      if (message.type === 'mode') {
        clearTimeout(timer)
        if (!reading && polls()) timer = setTimeout(load, pollMs)
        return
      }
      const next = follow?.(message, shown)
      if (next === 'reload') return reload()
      if (next === undefined) return
      // The record is newer than the last answer: its ETag must not make the next read a 304.
      etag = undefined
      again ||= reading
      show(next)
    })
    void load()
    return () => {
      stopped = true
      clearTimeout(timer)
      unsubscribe?.()
    }
  }, [key, feed])
  return state
}

/** The indexer's own message for a refusal, else its status. */
export function errorMessage({ status, body }: ApiAnswer): string {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message
  return typeof message === 'string' ? message : `The indexer answered HTTP ${status}.`
}
