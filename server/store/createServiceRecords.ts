import type { Service } from '../../contract/service.ts'
import type { ServiceEvent } from '../../contract/serviceEvent.ts'
import { compareLogs } from './compareLogs.ts'
import { compareUintText } from '../../contract/compareUintText.ts'
import { createSellerIndex } from './createSellerIndex.ts'
import { createTransactionIndex, sameSlot } from './createTransactionIndex.ts'
import type { StoreReader, StoredTransactionRecords } from './StoreReader.ts'
import type { RecordWriter } from './StoreWriter.ts'
import type { RecordPartParameters } from './RecordPartParameters.ts'

/** Registration or creation before the indexed range: no rollback can remove it. */
export const beforeRange = -1n

/** A service as the store holds it: `registeredBlock` and `lastBlock` are `beforeRange` when no rollback reaches them. */
export type ServiceEntry = { service: Service; registeredBlock: bigint; lastBlock: bigint; events: readonly ServiceEvent[] }

/** The services with their events, by id and by seller, and the lookups a rollback and a restore make. */
export type ServiceRecords = Pick<StoreReader, 'service' | 'serviceEvents' | 'serviceList' | 'sellerServiceIds'> &
  Pick<RecordWriter, 'putService' | 'addServiceEvent'> & {
    readonly entries: ReadonlyMap<bigint, ServiceEntry>
    /** StoreWriter's `staleServiceIds`. */
    readonly stale: Set<bigint>
    /** The services that hold an event of this transaction, by ascending id (see StoreReader's `transactionRecords`). */
    transactionServices(transactionHash: string): StoredTransactionRecords['services']
    /** Replaces a service's event list; the transaction index follows. */
    setEvents(serviceId: bigint, entry: ServiceEntry, events: readonly ServiceEvent[]): void
    delete(serviceId: bigint, entry: ServiceEntry): void
    clear(): void
  }

export type CreateServiceRecordsParameters = RecordPartParameters

const noServiceEvents: readonly ServiceEvent[] = []

export function createServiceRecords({ counters, changed, changes }: CreateServiceRecordsParameters): ServiceRecords {
  const entries = new Map<bigint, ServiceEntry>()
  const sellers = createSellerIndex()
  const servicesByTransaction = createTransactionIndex<bigint>()
  const stale = new Set<bigint>()
  let serviceListCache: Service[] | undefined

  const setEvents = (serviceId: bigint, entry: ServiceEntry, events: readonly ServiceEvent[]): void => {
    changes.serviceChanged(serviceId)
    for (const event of entry.events)
      if (!events.includes(event) && !events.some(({ transactionHash }) => sameSlot(transactionHash, event.transactionHash)))
        servicesByTransaction.remove(event.transactionHash, serviceId)
    entry.events = events
  }

  const deleteService = (serviceId: bigint, entry: ServiceEntry): void => {
    setEvents(serviceId, entry, noServiceEvents)
    entries.delete(serviceId)
    stale.delete(serviceId)
    sellers.remove(entry.service.seller, serviceId)
    counters.services -= 1
    serviceListCache = undefined
    changed()
  }

  return {
    entries,
    stale,
    setEvents,
    delete: deleteService,
    service: (serviceId) => entries.get(serviceId)?.service,
    serviceEvents: (serviceId) => entries.get(serviceId)?.events,
    serviceList() {
      serviceListCache ??= [...entries].sort(([a], [b]) => compare(a, b)).map(([, entry]) => entry.service)
      return serviceListCache
    },
    sellerServiceIds: sellers.get,

    transactionServices(transactionHash) {
      const touched: { service: Service; events: readonly ServiceEvent[] }[] = []
      for (const serviceId of servicesByTransaction.get(transactionHash)) {
        const entry = entries.get(serviceId)
        if (entry !== undefined && entry.events.some((event) => event.transactionHash === transactionHash))
          touched.push({ service: entry.service, events: entry.events })
      }
      return touched.sort((a, b) => compareUintText(a.service.serviceId, b.service.serviceId))
    },

    putService({ serviceId, service, block, registeredBlock }) {
      changes.serviceChanged(serviceId)
      const entry = entries.get(serviceId)
      if (entry === undefined) {
        entries.set(serviceId, {
          service,
          registeredBlock: registeredBlock ?? beforeRange,
          lastBlock: block ?? beforeRange,
          events: noServiceEvents,
        })
        sellers.add(service.seller, serviceId)
        counters.services += 1
      } else {
        entry.service = service
        if (registeredBlock !== undefined) entry.registeredBlock = registeredBlock
        if (block !== undefined && block > entry.lastBlock) entry.lastBlock = block
      }
      stale.delete(serviceId)
      serviceListCache = undefined
      changed()
    },

    addServiceEvent({ serviceId, event }) {
      const entry = entries.get(serviceId)
      if (entry === undefined) throw new RangeError(`Service ${serviceId} must be stored before its events.`)
      const { events } = entry
      if (events.some((held) => held.logIndex === event.logIndex && held.blockNumber === event.blockNumber)) return
      let index = events.length
      while (index > 0 && compareEvents(events[index - 1] as ServiceEvent, event) > 0) index -= 1
      entry.events = events.toSpliced(index, 0, event)
      changes.serviceChanged(serviceId)
      servicesByTransaction.add(event.transactionHash, serviceId)
      changed()
    },

    clear() {
      for (const [serviceId, entry] of entries) deleteService(serviceId, entry)
      sellers.clear()
      servicesByTransaction.clear()
    },
  }
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function compareEvents(a: ServiceEvent, b: ServiceEvent): number {
  return compareLogs(a.blockNumber, a.logIndex, b)
}
