import { useLayoutEffect, useState } from 'preact/hooks'

/** What a typed client call resolves to (any route). */
export type ApiAnswer = { status: number; body: unknown; headers: Headers }

/** One API read as the page shows it. `missing` is a 404: the id names nothing. */
export type ApiState<T> =
  | { status: 'loading' }
  | { status: 'missing'; message: string }
  | { status: 'failed'; message: string }
  | { status: 'ready'; data: T }

export type UseApiParameters = {
  /** Read again this often (milliseconds), sending the last ETag so an unchanged answer costs a 304. */
  pollMs?: number
}

/**
 * Reads one route through the typed client, again whenever `key` changes, and every `pollMs` with
 * `If-None-Match`: the indexer answers 304 with no body until something it serves has changed.
 */
export function useApi<T>(key: string, read: (headers: Record<string, string>) => Promise<ApiAnswer>, { pollMs }: UseApiParameters = {}): ApiState<T> {
  const [state, setState] = useState<ApiState<T>>({ status: 'loading' })
  // A layout effect starts the read right after the first render, not a frame later.
  useLayoutEffect(() => {
    let stopped = false
    let etag: string | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    setState({ status: 'loading' })
    const load = async (): Promise<void> => {
      try {
        const answer = await read(etag === undefined ? {} : { 'if-none-match': etag })
        if (stopped) return
        if (answer.status === 200) {
          etag = answer.headers.get('etag') ?? undefined
          setState({ status: 'ready', data: answer.body as T })
        } else if (answer.status !== 304) {
          const message = errorMessage(answer)
          setState(answer.status === 404 ? { status: 'missing', message } : { status: 'failed', message })
        }
      } catch (error) {
        if (!stopped) setState({ status: 'failed', message: `The indexer could not be reached: ${String(error)}` })
      }
      if (!stopped && pollMs !== undefined) timer = setTimeout(load, pollMs)
    }
    void load()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [key])
  return state
}

/** The indexer's own message for a refusal, else its status. */
export function errorMessage({ status, body }: ApiAnswer): string {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message
  return typeof message === 'string' ? message : `The indexer answered HTTP ${status}.`
}
