import type { Transaction, TransactionEvent } from '../../contract/transaction.ts'
import { TransactionNotFoundError } from '../../errors/notFound.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'

export type GetTransactionParameters = {
  /** 0x + 64 hex digits, any case. */
  transactionHash: string
}
export type GetTransactionReturnType = Transaction

/**
 * The market events one transaction emitted, in log order, each naming its job or service;
 * throws TransactionNotFoundError (`transaction_not_found`) when the store holds none. Put
 * together per call from the histories of the records the store's transaction index names.
 */
export function getTransaction(store: StoreReader, { transactionHash }: GetTransactionParameters): GetTransactionReturnType {
  assertServing(store)
  const hash = transactionHash.toLowerCase()
  const { jobs, services } = store.transactionRecords(hash)
  let first: { blockNumber: string; timestamp: string } | undefined
  const events: TransactionEvent[] = []
  const histories = [
    ...jobs.map(({ job, events: history }) => ({ history, about: { jobId: job.jobId } })),
    ...services.map(({ service, events: history }) => ({ history, about: { serviceId: service.serviceId } })),
  ]
  for (const { history, about } of histories)
    for (const { event, logIndex, transactionHash: held, blockNumber, timestamp } of history) {
      if (held !== hash) continue
      first ??= { blockNumber, timestamp }
      events.push({ event, logIndex, ...about })
    }
  if (first === undefined) throw new TransactionNotFoundError({ transactionHash: hash })
  events.sort((a, b) => a.logIndex - b.logIndex)
  return { transactionHash: hash as Transaction['transactionHash'], blockNumber: first.blockNumber, timestamp: first.timestamp, count: events.length, events }
}
