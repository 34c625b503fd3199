import { toJobEvent } from '../../chain/mappers/toJobEvent.ts'
import { jobEventNames, type JobEventName } from '../../contract/job.ts'
import type { Store } from '../store/createStore.ts'
import type { ReadWindowReturnType } from './readWindow.ts'

/**
 * Applies one fully read window to the store and moves the cursor to its last block. Records
 * take the values just read from the chain; events go into each job's history and drive the
 * counters. Synchronous, so readers never see half a window; applying a window twice changes
 * nothing, because an event is keyed by its block hash and log index.
 */
export function applyLogs(store: Store, { toBlock, logs, timestamps, services, jobs }: ReadWindowReturnType): void {
  const lastServiceBlock = new Map<bigint, bigint>()
  const registeredBlock = new Map<bigint, bigint>()
  const lastJobBlock = new Map<bigint, bigint>()
  const createdBlock = new Map<bigint, bigint>()
  for (const log of logs) {
    if ('jobId' in log.args) {
      lastJobBlock.set(log.args.jobId, log.blockNumber)
      if (log.eventName === 'JobCreated') createdBlock.set(log.args.jobId, log.blockNumber)
    } else {
      lastServiceBlock.set(log.args.serviceId, log.blockNumber)
      if (log.eventName === 'ServiceRegistered') registeredBlock.set(log.args.serviceId, log.blockNumber)
    }
  }

  for (const [serviceId, service] of services) {
    store.putService({
      serviceId,
      service,
      block: lastServiceBlock.get(serviceId),
      registeredBlock: registeredBlock.get(serviceId),
    })
  }
  for (const [jobId, job] of jobs) {
    store.putJob({ jobId, job, block: lastJobBlock.get(jobId), createdBlock: createdBlock.get(jobId) })
  }

  for (const log of logs) {
    if (!('jobId' in log.args) || !isJobEventName(log.eventName)) continue
    const timestamp = timestamps.get(log.blockNumber)
    if (timestamp === undefined) throw new RangeError(`Block ${log.blockNumber} has a log but no header was read.`)
    store.addJobEvent(log.args.jobId, {
      key: `${log.blockHash}:${log.logIndex}`,
      blockNumber: log.blockNumber,
      logIndex: log.logIndex,
      settledWei: log.eventName === 'JobSettled' ? log.args.paidToSeller + log.args.protocolFee : undefined,
      entry: toJobEvent({
        event: log.eventName,
        blockNumber: log.blockNumber,
        transactionHash: log.transactionHash,
        logIndex: log.logIndex,
        timestamp,
      }),
    })
  }

  store.advance(toBlock)
}

function isJobEventName(name: string): name is JobEventName {
  return (jobEventNames as readonly string[]).includes(name)
}
