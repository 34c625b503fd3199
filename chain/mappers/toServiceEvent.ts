import type { DecodeEventLogReturnType, Hash } from 'viem'
import type { ServiceEvent } from '../../contract/serviceEvent.ts'
import type { registryAbi } from '../abi/registry.ts'

/** A decoded registry log: its event and arguments, and where it sits in the chain. */
export type RegistryLog = DecodeEventLogReturnType<typeof registryAbi> & {
  blockNumber: bigint
  transactionHash: Hash
  logIndex: number
}

export type ToServiceEventParameters = {
  log: RegistryLog
  /** Time (unix seconds) of the block holding the log. */
  timestamp: bigint
}

/** One entry of a service's on-chain history, with what the event changed as contract fields. */
export function toServiceEvent({ log, timestamp }: ToServiceEventParameters): ServiceEvent {
  const base = {
    event: log.eventName,
    blockNumber: log.blockNumber.toString(),
    transactionHash: log.transactionHash,
    logIndex: log.logIndex,
    timestamp: timestamp.toString(),
  }
  switch (log.eventName) {
    case 'ServiceRegistered':
      return { ...base, signingAddress: log.args.signingAddress }
    case 'SigningAddressRotated':
      return { ...base, signingAddress: log.args.newKey, previousSigningAddress: log.args.oldKey }
    case 'ServiceUpdated':
      return { ...base, pricePerCall: log.args.newPrice.toString(), active: log.args.active }
    case 'ServiceDelisted':
      return base
  }
}
