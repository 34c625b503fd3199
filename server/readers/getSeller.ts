import { checksumAddress, type Address } from 'viem'
import { sellerJobsLimit } from '../../contract/jobsQuery.ts'
import type { Seller } from '../../contract/seller.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'
import type { JobCursorScope } from './jobCursor.ts'
import { pageJobs } from './pageJobs.ts'

export type GetSellerParameters = {
  /** 0x + 40 hex in any case; answered EIP-55 checksummed. */
  address: string
  /** How many jobs at most (default 1,000); the caller validates the range. */
  limit?: number | undefined
  /** The previous page's `nextCursor`; throws InvalidCursorError when it is not one of this seller's. */
  cursor?: string | undefined
}
export type GetSellerReturnType = Seller

/** The list a cursor of this seller's jobs walks. */
export function toSellerJobsScope(address: string): JobCursorScope {
  return `/v1/sellers/${checksumAddress(address as Address)}`
}

/** Everything of one seller, newest first, its jobs a page at a time; a seller with nothing gets two empty arrays. */
export function getSeller(store: StoreReader, { address, limit = sellerJobsLimit.default, cursor }: GetSellerParameters): GetSellerReturnType {
  assertServing(store)
  const seller = checksumAddress(address as Address)
  const serviceIds = store.sellerServiceIds(seller)
  const services: Seller['services'] = []
  for (let index = serviceIds.length - 1; index >= 0; index -= 1) {
    const service = store.service(serviceIds[index] as bigint)
    if (service !== undefined) services.push(service)
  }
  const { jobs, nextCursor } = pageJobs({ sources: [store.sellerJobs(seller)], limit, cursor, scope: toSellerJobsScope(seller) })
  return { seller, services, jobs, nextCursor }
}
