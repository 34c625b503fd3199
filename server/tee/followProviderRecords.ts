import type { Address, Client } from 'viem'
import { getBlockNumber, getLogs } from 'viem/actions'
import { inferenceServingAbi } from '../../chain/abi/inferenceServing.ts'

export type FollowProviderRecordsParameters = {
  /** 0G's InferenceServing contract on the chain `client` reads. */
  inferenceServing: Address
  /** Called with the provider of each record that changed (updated, removed, signer acknowledged or not). */
  onChange: (providerAddress: Address) => void
  /** The widest `eth_getLogs` range asked at once (default 1,000 blocks): public nodes refuse wider ones. */
  maxRange?: bigint | undefined
}

export type ProviderRecordFollower = {
  /** Reads the record events from the last block read to the head; the first call only marks where to start. */
  poll(): Promise<void>
}

const recordEvents = inferenceServingAbi.filter(
  (item) => item.type === 'event' && ['ServiceUpdated', 'ServiceRemoved', 'ProviderTEESignerAcknowledged'].includes(item.name),
)

/**
 * Follows the provider records' events so that a changed record is checked again at once rather
 * than when its verdict expires. It needs no history: a service's first check reads its record
 * whatever happened before, so following starts at the head.
 */
export function followProviderRecords(
  client: Client,
  { inferenceServing, onChange, maxRange = 1_000n }: FollowProviderRecordsParameters,
): ProviderRecordFollower {
  let next: bigint | undefined
  return {
    async poll() {
      const head = await getBlockNumber(client, { cacheTime: 0 })
      if (next === undefined) {
        next = head + 1n
        return
      }
      for (let fromBlock = next; fromBlock <= head; fromBlock = next) {
        const last = fromBlock + maxRange - 1n
        const toBlock: bigint = last < head ? last : head
        const logs = await getLogs(client, { address: inferenceServing, events: recordEvents, fromBlock, toBlock, strict: true })
        for (const log of logs) {
          const args = log.args as { service?: Address; provider?: Address }
          const provider = args.service ?? args.provider
          if (provider !== undefined) onChange(provider)
        }
        next = toBlock + 1n
      }
    },
  }
}
