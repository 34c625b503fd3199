import type { ServiceEventList } from '../../contract/serviceEvent.ts'
import { ServiceNotFoundError } from '../../errors/notFound.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'

export type GetServiceEventsParameters = { serviceId: bigint }
export type GetServiceEventsReturnType = ServiceEventList

/** A service's registry events, oldest first; throws ServiceNotFoundError when the id is unknown. */
export function getServiceEvents(store: StoreReader, { serviceId }: GetServiceEventsParameters): GetServiceEventsReturnType {
  assertServing(store)
  const events = store.serviceEvents(serviceId)
  if (events === undefined) throw new ServiceNotFoundError({ serviceId })
  return { count: events.length, events: events as ServiceEventList['events'] }
}
