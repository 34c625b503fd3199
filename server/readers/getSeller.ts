import type { Seller } from '../../contract/seller.ts'
import type { Store, StoredJob } from '../store/createStore.ts'
import { assertServing } from './assertServing.ts'

export type GetSellerParameters = {
  /** 0x + 40 hex in any case; echoed back exactly as given. */
  address: string
}
export type GetSellerReturnType = Seller

/** Everything of one seller, newest first; a seller with nothing gets two empty arrays. */
export function getSeller(store: Store, { address }: GetSellerParameters): GetSellerReturnType {
  assertServing(store)
  const serviceIds = store.sellerServiceIds(address)
  const sellerJobs = store.sellerJobs(address)
  const services: Seller['services'] = []
  for (let index = serviceIds.length - 1; index >= 0; index -= 1) {
    const service = store.service(serviceIds[index] as bigint)
    if (service !== undefined) services.push(service)
  }
  const jobs: Seller['jobs'] = []
  for (let index = sellerJobs.length - 1; index >= 0; index -= 1) jobs.push((sellerJobs[index] as StoredJob).job)
  return { seller: address, services, jobs }
}
