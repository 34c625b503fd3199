import { checksumAddress, type Address } from 'viem'
import type { Buyer } from '../../contract/buyer.ts'
import { jobsLimit } from '../../contract/jobsQuery.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'
import type { JobCursorScope } from './jobCursor.ts'
import { pageJobs } from './pageJobs.ts'

export type GetBuyerParameters = {
  /** 0x + 40 hex in any case; answered EIP-55 checksummed. */
  address: string
  /** How many jobs at most (default 50); the caller validates the range. */
  limit?: number | undefined
  /** The previous page's `nextCursor`; throws InvalidCursorError when it is not one of this buyer's. */
  cursor?: string | undefined
}
export type GetBuyerReturnType = Buyer

/** The list a cursor of this buyer walks. */
export function toBuyerJobsScope(address: string): JobCursorScope {
  return `/v1/buyers/${checksumAddress(address as Address)}`
}

/** The jobs one address paid for, newest first, a page at a time; an empty array when none. */
export function getBuyer(store: StoreReader, { address, limit = jobsLimit.default, cursor }: GetBuyerParameters): GetBuyerReturnType {
  assertServing(store)
  const buyer = checksumAddress(address as Address)
  const { jobs, nextCursor } = pageJobs({ sources: [store.buyerJobs(buyer)], limit, cursor, scope: toBuyerJobsScope(buyer) })
  return { buyer, jobs, nextCursor }
}
