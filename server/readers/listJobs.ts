import { checksumAddress, type Address } from 'viem'
import { jobsLimit } from '../../contract/jobsQuery.ts'
import type { JobList } from '../../contract/lists.ts'
import type { StoreReader, StoredJob } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'
import type { JobCursorScope } from './jobCursor.ts'
import { pageJobs } from './pageJobs.ts'

/** What a job must match, every filter given (AND). */
export type JobFilters = {
  /** 0x + 40 hex, any case. */
  buyer?: string | undefined
  seller?: string | undefined
  serviceId?: bigint | undefined
  /** Any of these states (0–6); absent or empty: any state. */
  states?: readonly number[] | undefined
}

export type ListJobsParameters = JobFilters & {
  /** How many jobs at most; the caller validates the range (1..1000 on REST). */
  limit?: number | undefined
  /** The previous page's `nextCursor`; throws InvalidCursorError when it is not one of this list's. */
  cursor?: string | undefined
}
export type ListJobsReturnType = JobList

/**
 * The list a cursor of these filters walks: addresses checksummed and states sorted, so the same
 * filter written another way continues the same walk.
 */
export function toJobsScope({ buyer, seller, serviceId, states }: JobFilters): JobCursorScope {
  const address = (value: string | undefined): string => (value === undefined ? '' : checksumAddress(value as Address))
  const stateList = states === undefined || states.length === 0 ? '' : [...new Set(states)].sort((a, b) => a - b).join(',')
  return `/v1/jobs?buyer=${address(buyer)}&seller=${address(seller)}&serviceId=${serviceId ?? ''}&state=${stateList}`
}

/**
 * The jobs that match every filter given, newest first (highest jobId first), without their
 * event history, a page at a time. The page is read from the smallest of the store's indexes the
 * filters name (the buyer's, seller's or service's jobs, or those of the states), the other filters
 * checked on each job: at any store size a page costs about as much as an unfiltered one, unless
 * the filters together match few of the indexed jobs.
 */
export function listJobs(
  store: StoreReader,
  { limit = jobsLimit.default, cursor, buyer, seller, serviceId, states }: ListJobsParameters = {},
): ListJobsReturnType {
  assertServing(store)
  const wantedStates = states === undefined || states.length === 0 ? undefined : states
  const candidates: (readonly (readonly StoredJob[])[])[] = []
  if (buyer !== undefined) candidates.push([store.buyerJobs(buyer)])
  if (seller !== undefined) candidates.push([store.sellerJobs(seller)])
  if (serviceId !== undefined) candidates.push([store.serviceJobs(serviceId)])
  if (wantedStates !== undefined) candidates.push(wantedStates.map((state) => store.stateJobs(state)))
  const sources = candidates.reduce<readonly (readonly StoredJob[])[] | undefined>(
    (smallest, lists) => (smallest === undefined || size(lists) < size(smallest) ? lists : smallest),
    undefined,
  ) ?? [store.jobList]
  // Job records hold EIP-55 addresses and canonical ids: one comparison per filter and job.
  const buyerAddress = buyer === undefined ? undefined : checksumAddress(buyer as Address)
  const sellerAddress = seller === undefined ? undefined : checksumAddress(seller as Address)
  const service = serviceId?.toString()
  const matches =
    candidates.length <= 1
      ? undefined
      : (job: JobList['jobs'][number]): boolean =>
          (buyerAddress === undefined || job.buyer === buyerAddress) &&
          (sellerAddress === undefined || job.seller === sellerAddress) &&
          (service === undefined || job.serviceId === service) &&
          (wantedStates === undefined || wantedStates.includes(job.state))
  const scope = toJobsScope({ buyer, seller, serviceId, states })
  const { jobs, nextCursor } = pageJobs({ sources, matches, limit, cursor, scope })
  return { count: jobs.length, jobs, nextCursor }
}

function size(lists: readonly (readonly StoredJob[])[]): number {
  let total = 0
  for (const list of lists) total += list.length
  return total
}
