import type { FeedPosition } from './FeedPosition.ts'

/** What a stream's filters look at: the record an event is about (addresses in lowercase). */
export type FeedSubject = RecordSubject | { kind: 'head' }

/** A job or a service, as FeedSubject names it. */
export type RecordSubject = { kind: 'job'; jobId: string; serviceId: string; seller: string; buyer: string } | { kind: 'service'; serviceId: string; seller: string }

/** One event as the feed keeps it: where it stands, what it is about, and its text, made once for every stream. */
export type FeedEntry = {
  position: FeedPosition
  subject: FeedSubject
  /** The whole Server-Sent Event, `id:` line included. */
  frame: string
}
