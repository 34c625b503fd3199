import { useEffect, useState } from 'preact/hooks'
import type { Service } from '../../contract/service.ts'
import { client } from './client.ts'

/** Ids of the services whose registry history holds a key rotation; undefined until all are read. */
export function useRotatedServices(services: readonly Service[] | undefined): ReadonlySet<string> | undefined {
  const [rotated, setRotated] = useState<ReadonlySet<string> | undefined>(undefined)
  const ids = services?.map(({ serviceId }) => serviceId).join(',')
  useEffect(() => {
    if (services === undefined) return
    let stopped = false
    void Promise.all(
      services.map(async ({ serviceId }) => {
        const answer = await client.services.getServiceEvents({ params: { id: serviceId } })
        return answer.status === 200 && answer.body.events.some(({ event }) => event === 'SigningAddressRotated') ? [serviceId] : []
      }),
    )
      .then((lists) => {
        if (!stopped) setRotated(new Set(lists.flat()))
      })
      .catch(() => {})
    return () => {
      stopped = true
    }
  }, [ids])
  return rotated
}
