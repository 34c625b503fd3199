import { toServiceEvent } from '../../chain/mappers/toServiceEvent.ts'
import type { RegistryLog } from '../../chain/mappers/toServiceEvent.ts'
import { serviceEventNames, type ServiceEventName } from '../../contract/serviceEvent.ts'
import type { Store } from '../store/createStore.ts'
import type { ReadWindowReturnType } from './readWindow.ts'
import { isJobLog, toHistoryEntry } from './toHistoryEntry.ts'

/**
 * Applies one fully read window to the store and moves the cursor to its last block. Records
 * take the values just read from the chain; events go into each job's history and drive the
 * counters. Synchronous, so readers never see half a window; applying a window twice changes
 * nothing, because a job's event is known by its block number and log index.
 */
export function applyLogs(store: Store, { toBlock, creations, logs, timestamps, services, jobs }: ReadWindowReturnType): void {
  const timestampOf = (blockNumber: bigint): bigint => {
    const timestamp = timestamps.get(blockNumber)
    if (timestamp === undefined) throw new RangeError(`Block ${blockNumber} has a log but no header was read.`)
    return timestamp
  }
  const lastServiceBlock = new Map<bigint, bigint>()
  const registeredBlock = new Map<bigint, bigint>()
  for (const log of logs) {
    if ('jobId' in log.args) continue
    lastServiceBlock.set(log.args.serviceId, log.blockNumber)
    if (log.eventName === 'ServiceRegistered') registeredBlock.set(log.args.serviceId, log.blockNumber)
  }

  for (const [serviceId, service] of services) {
    store.putService({
      serviceId,
      service,
      block: lastServiceBlock.get(serviceId),
      registeredBlock: registeredBlock.get(serviceId),
    })
  }
  for (const [jobId, job] of jobs) store.putJob({ jobId, job })

  for (const log of logs) {
    if ('jobId' in log.args || !isServiceEventName(log.eventName)) continue
    store.addServiceEvent({
      serviceId: log.args.serviceId,
      event: toServiceEvent({ log: log as RegistryLog, timestamp: timestampOf(log.blockNumber) }),
    })
  }

  for (const log of logs) {
    if (!isJobLog(log)) continue
    store.addJobEvent({ jobId: log.args.jobId, ...toHistoryEntry({ log, timestamp: timestampOf(log.blockNumber) }) })
  }

  store.advance(toBlock, creations)
}

function isServiceEventName(name: string): name is ServiceEventName {
  return (serviceEventNames as readonly string[]).includes(name)
}
