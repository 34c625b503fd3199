import type { Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { devnetMnemonic } from '../../../devnet/seed/seedAccounts.ts'

/** The private key of a devnet account. Hardhat funds 30 accounts; the seed uses #0..#9, the run tests #20 and up. */
export function accountKey(addressIndex: number): Hex {
  const key = mnemonicToAccount(devnetMnemonic, { addressIndex }).getHdKey().privateKey
  if (key === null) throw new Error('no private key')
  return `0x${Buffer.from(key).toString('hex')}`
}
