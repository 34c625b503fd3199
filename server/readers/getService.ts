import type { Service } from '../../contract/service.ts'
import { ServiceNotFoundError } from '../../errors/notFound.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'

export type GetServiceParameters = { serviceId: bigint }
export type GetServiceReturnType = Service

/** One service by id; throws ServiceNotFoundError (`service_not_found`) when the id is unknown. */
export function getService(store: StoreReader, { serviceId }: GetServiceParameters): GetServiceReturnType {
  assertServing(store)
  const service = store.service(serviceId)
  if (service === undefined) throw new ServiceNotFoundError({ serviceId })
  return service
}
