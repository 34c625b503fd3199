import { BaseError } from './BaseError.ts'

/** The live feed is asked for before the initial back-fill is done: nothing could be sent that REST would agree with. */
export class FeedNotReadyError extends BaseError {
  override name = 'FeedNotReadyError'
  readonly retryAfterSeconds: number
  constructor({ retryAfterSeconds }: { retryAfterSeconds: number }) {
    super(`The live feed starts once the indexer has caught up with the chain (see /healthz). Retry after ${retryAfterSeconds} s.`, { code: 'feed_not_ready' })
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** A stream over a cap: this client address's, or the server's in total. */
export class TooManyStreamsError extends BaseError {
  override name = 'TooManyStreamsError'
  readonly retryAfterSeconds: number
  constructor({ scope, max, retryAfterSeconds }: { scope: 'client' | 'server'; max: number; retryAfterSeconds: number }) {
    const held = scope === 'client' ? `This address holds ${max} streams, the most one client may open` : `This server holds ${max} streams, the most it serves`
    super(`${held}; one stream can filter for many jobs (jobs=1,2,3). Retry after ${retryAfterSeconds} s.`, { code: 'too_many_streams' })
    this.retryAfterSeconds = retryAfterSeconds
  }
}
