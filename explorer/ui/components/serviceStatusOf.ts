import type { Service } from '../../../contract/service.ts'
import type { ServiceEvent } from '../../../contract/serviceEvent.ts'

/**
 * `active`; `inactive`: the seller turned it off with `updateService(…, active = false)`, and can
 * turn it on again the same way; `delisted`: the seller called `delistService`.
 */
export type ServiceStatus = 'active' | 'inactive' | 'delisted'

/**
 * Why a service is or is not active. The Service record has only the boolean `active`, which both
 * `updateService` and `delistService` clear; its registry history says which of them did it last.
 * Undefined for a service that is not active while its history is unknown.
 */
export function serviceStatusOf(service: Pick<Service, 'active'>, history: readonly ServiceEvent[] | undefined): ServiceStatus | undefined {
  if (service.active) return 'active'
  if (history === undefined) return undefined
  const last = history.findLast(({ event }) => event === 'ServiceUpdated' || event === 'ServiceDelisted')
  return last?.event === 'ServiceDelisted' ? 'delisted' : 'inactive'
}
