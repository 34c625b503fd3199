import type { Chain, Client, Hash, Transport } from 'viem'
import type { Deployment } from '../../config/deployment.ts'
import type { NonceSender } from './createNonceSender.ts'

/** What every step of the seed shares: the node, the contracts, the accounts and the planned ids. */
export type SeedRun = {
  client: Client<Transport, Chain | undefined>
  deployment: Deployment
  /** Account #0: the contracts' deployer, owner of the InferenceServing mock. */
  deployer: NonceSender
  sellers: readonly NonceSender[]
  buyers: readonly NonceSender[]
  /** The planned services' ids, in plan order. */
  serviceIds: readonly bigint[]
  /** The planned jobs' ids, in plan order. */
  jobIds: readonly bigint[]
  /** Runs one named step, remembers the transaction it sent, and names the step when it fails. */
  step: <T extends Hash | void>(name: string, run: () => Promise<T>) => Promise<T>
  /** The seller account of a planned service. */
  sellerOf: (serviceIndex: number) => NonceSender
  /** Every transaction sent so far, for the final check of their receipts. */
  sent: readonly Hash[]
}
