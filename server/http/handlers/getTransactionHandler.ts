import type { MarketContract } from '../../../contract/router.ts'
import { getTransaction } from '../../readers/getTransaction.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetTransactionHandler = ContractHandler<MarketContract['transactions']['getTransaction']>

/** `GET /v1/transactions/:hash`; a hash with no market event throws TransactionNotFoundError, answered as 404. */
export function getTransactionHandler({ store }: { store: StoreReader }): GetTransactionHandler {
  return {
    version: ({ params }) => {
      const { jobs, services } = store.transactionRecords(params.hash.toLowerCase())
      return jobs.length + services.length === 0 ? undefined : store.version
    },
    answer: ({ params }) => ({ status: 200, body: getTransaction(store, { transactionHash: params.hash }) }),
  }
}
