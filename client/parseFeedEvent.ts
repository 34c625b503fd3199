import type { EventSourceMessage } from 'eventsource-parser'
import { feedEventTypes, FeedEventSchema, type FeedEvent, type FeedEventType } from '../contract/feed.ts'
import { FeedProtocolError } from '../errors/client.ts'

export type ParseFeedEventParameters = {
  /** Where the feed was read, for the error's message. */
  baseUrl: string
  /** Check the whole event against `FeedEventSchema` (the client's `validateResponse`). */
  validate: boolean
}

/** `FeedEvent` with `id` readable on every type: a reorg never has one. */
type WithId<event> = event extends unknown ? ('id' extends keyof event ? event : event & { id?: undefined }) : never

/** An event of the live feed as the client yields it: a `FeedEvent` (narrow on `event`), its `id` readable on any. */
export type MarketEvent = WithId<FeedEvent>

export type ParseFeedEventReturnType = MarketEvent | undefined

const isFeedEventType = (type: string | undefined): type is FeedEventType => (feedEventTypes as readonly (string | undefined)[]).includes(type)

/**
 * One Server-Sent Event of `GET /v1/events` as the contract types it: `{ event, id?, data }`.
 * An event type this client does not know (one a later indexer may add) is skipped (undefined),
 * as `EventSource` skips what nobody listens to. Data that is not a JSON object, or (with
 * `validate`) that `FeedEventSchema` refuses, throws a `FeedProtocolError` with the cause.
 */
export function parseFeedEvent(message: EventSourceMessage, { baseUrl, validate }: ParseFeedEventParameters): ParseFeedEventReturnType {
  const { event, id, data: text } = message
  if (!isFeedEventType(event)) return undefined
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (cause) {
    throw new FeedProtocolError({ baseUrl, problem: `a "${event}" event whose data is not JSON`, cause })
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new FeedProtocolError({ baseUrl, problem: `a "${event}" event whose data is not a JSON object` })
  }
  const candidate = { event, ...(id === undefined || id === '' ? {} : { id }), data }
  if (!validate) return candidate as MarketEvent
  const parsed = FeedEventSchema.safeParse(candidate)
  if (!parsed.success) throw new FeedProtocolError({ baseUrl, problem: `a "${event}" event outside the contract (FeedEventSchema)`, cause: parsed.error })
  return parsed.data
}
