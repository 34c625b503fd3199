import type { DecodeEventLogReturnType } from 'viem'
import type { DisputeEvent } from '../../contract/disputeEvent.ts'
import type { JobEvent } from '../../contract/job.ts'
import type { arbiterAbi } from '../abi/arbiter.ts'
import type { escrowAbi } from '../abi/escrow.ts'

/** A decoded log of the escrow or the arbiter: its event name and arguments. */
export type JobContractLog = DecodeEventLogReturnType<typeof escrowAbi> | DecodeEventLogReturnType<typeof arbiterAbi>

export type ToDisputeEventParameters = {
  log: JobContractLog
  /** The same log as an entry of the job's history (toJobEvent). */
  event: JobEvent
}

/**
 * The log as an event of the job's dispute, with its arguments as decimal strings and addresses
 * as viem decoded them (EIP-55); undefined for a log that is no dispute event.
 */
export function toDisputeEvent({ log, event }: ToDisputeEventParameters): DisputeEvent | undefined {
  const { blockNumber, transactionHash, logIndex, timestamp } = event
  const at = { blockNumber, transactionHash, logIndex, timestamp }
  switch (log.eventName) {
    case 'JobDisputed':
      return { event: log.eventName, ...at, disputer: log.args.disputer }
    case 'DisputeOpened':
      return { event: log.eventName, ...at, disputer: log.args.disputer, bond: log.args.bond.toString() }
    case 'DisputeFailed':
      return {
        event: log.eventName,
        ...at,
        disputer: log.args.disputer,
        toSeller: log.args.toSeller.toString(),
        toTreasury: log.args.toTreasury.toString(),
      }
    case 'JobSlashed':
      return {
        event: log.eventName,
        ...at,
        slashedSeller: log.args.slashedSeller,
        bondAmount: log.args.bondAmount.toString(),
        toDisputer: log.args.toDisputer.toString(),
        toTreasury: log.args.toTreasury.toString(),
        burned: log.args.burned.toString(),
      }
    case 'Slashed':
      return {
        event: log.eventName,
        ...at,
        disputer: log.args.disputer,
        sellerBondSlashed: log.args.sellerBondSlashed.toString(),
        toDisputer: log.args.toDisputer.toString(),
        toTreasury: log.args.toTreasury.toString(),
        burned: log.args.burned.toString(),
      }
    default:
      return undefined
  }
}
