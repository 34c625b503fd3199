import type { Address } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { devnetMnemonic } from '../devnet/seed/seedAccounts.ts'

export type BenchAccounts = {
  /** #0: deployed the contracts, so it owns the arbiter (slashes and rejects disputes). */
  deployer: Address
  /** #1..#5: each registers 10 of the 50 services and answers their jobs. */
  sellers: readonly Address[]
  /** #6..#29: create and dispute jobs. */
  buyers: readonly Address[]
}

const addressAt = (addressIndex: number): Address => mnemonicToAccount(devnetMnemonic, { addressIndex }).address

/**
 * Accounts of the hardhat node's own mnemonic: the node holds their keys, so the bench sends
 * `eth_sendTransaction` and the node signs in its native code instead of this process signing
 * some 200,000 transactions in JavaScript on a shared 2-core machine.
 */
export const benchAccounts: BenchAccounts = {
  deployer: addressAt(0),
  sellers: [1, 2, 3, 4, 5].map(addressAt),
  buyers: Array.from({ length: 24 }, (_, index) => addressAt(6 + index)),
}
