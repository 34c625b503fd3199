import { useEffect, useState } from 'preact/hooks'
import type { Service } from '../../contract/service.ts'
import type { ServiceEvent } from '../../contract/serviceEvent.ts'
import { client } from './client.ts'

/** Each service's registry history (GET /v1/services/{id}/events), by service id. */
export type ServiceHistories = ReadonlyMap<string, readonly ServiceEvent[]>

/**
 * The registry histories of the given services; undefined until all are read. Read again when a
 * service comes or goes, its `active` flips or its key rotates, so what is derived from them (key
 * rotated, why a service is not active) follows the list as the feed or polling updates it.
 */
export function useServiceHistories(services: readonly Service[] | undefined): ServiceHistories | undefined {
  const [histories, setHistories] = useState<ServiceHistories | undefined>(undefined)
  const key = services?.map(({ serviceId, active, signingAddress }) => `${serviceId}:${active}:${signingAddress}`).join(',')
  useEffect(() => {
    if (services === undefined) return
    let stopped = false
    void Promise.all(
      services.map(async ({ serviceId }) => {
        const answer = await client.services.getServiceEvents({ params: { id: serviceId } })
        return answer.status === 200 ? [[serviceId, answer.body.events] as const] : []
      }),
    )
      .then((lists) => {
        if (!stopped) setHistories(new Map(lists.flat()))
      })
      .catch(() => {})
    return () => {
      stopped = true
    }
  }, [key])
  return histories
}
