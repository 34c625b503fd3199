import type { EventsQuery } from '../../contract/feed.ts'
import { feedRecordTypes } from '../../contract/feed.ts'
import type { FeedSubject } from './FeedEntry.ts'

/** A stream's filters, ready to match (addresses in lowercase). */
export type FeedFilter = {
  jobs: ReadonlySet<string> | undefined
  seller: string | undefined
  buyer: string | undefined
  serviceId: string | undefined
  types: ReadonlySet<string>
}

export function toFeedFilter({ jobs, seller, buyer, serviceId, types }: EventsQuery): FeedFilter {
  return {
    jobs: jobs === undefined ? undefined : new Set(jobs),
    seller: seller?.toLowerCase(),
    buyer: buyer?.toLowerCase(),
    serviceId,
    types: new Set(types ?? feedRecordTypes),
  }
}

/** Whether an event about `subject` goes to a stream with `filter`: the filters combine with AND; heads go to every stream. */
export function matchesFeedFilter(filter: FeedFilter, subject: FeedSubject): boolean {
  if (subject.kind === 'head') return true
  if (!filter.types.has(subject.kind)) return false
  if (filter.seller !== undefined && filter.seller !== subject.seller) return false
  if (filter.serviceId !== undefined && filter.serviceId !== subject.serviceId) return false
  if (subject.kind === 'service') return filter.jobs === undefined && filter.buyer === undefined
  return (filter.jobs === undefined || filter.jobs.has(subject.jobId)) && (filter.buyer === undefined || filter.buyer === subject.buyer)
}
