import type { ServiceList } from '../../contract/lists.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'

export type ListServicesReturnType = ServiceList

/** Every registered service (active or not), ascending by serviceId. */
export function listServices(store: StoreReader): ListServicesReturnType {
  assertServing(store)
  const services = store.serviceList() as ServiceList['services']
  return { count: services.length, services }
}
