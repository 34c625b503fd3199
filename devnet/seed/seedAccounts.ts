import { type Address, type Hex, getAddress, keccak256, stringToHex } from 'viem'
import { type HDAccount, mnemonicToAccount, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'

/** Hardhat's default mnemonic: every key derived from it is public. Never use it off the devnet. */
export const devnetMnemonic = 'test test test test test test test test test test test junk'

const accountAt = (addressIndex: number): HDAccount => mnemonicToAccount(devnetMnemonic, { addressIndex })

/**
 * A fixed private key derived from a label, so the signing keys of seeded services are the same
 * on every run and anyone can re-derive them.
 */
export function labelledPrivateKey(label: string): Hex {
  return keccak256(stringToHex(`tee-market devnet: ${label}`))
}

export type SeedAccounts = {
  /** #0: deploys the contracts; the treasury. */
  deployer: HDAccount
  /** #1..#3. Seller #1 is the one the reference seller runs. */
  sellers: readonly [HDAccount, HDAccount, HDAccount]
  /** #4..#9. */
  buyers: readonly HDAccount[]
  /** #10: funded and untouched by the seed; the buyer key `npm start` prints for trying `run`. */
  demoBuyer: HDAccount
}

export const seedAccounts: SeedAccounts = {
  deployer: accountAt(0),
  sellers: [accountAt(1), accountAt(2), accountAt(3)],
  buyers: [4, 5, 6, 7, 8, 9].map(accountAt),
  demoBuyer: accountAt(10),
}

/** The attestation signing key of a seeded service's signing-key generation (1 = at registration). */
export function serviceSigningAccount({ key, generation }: { key: string; generation: number }): PrivateKeyAccount {
  return privateKeyToAccount(labelledPrivateKey(`signing key ${key} #${generation}`))
}

/**
 * A seeded service's `providerAddress`: an address derived from the provider's name, whose key
 * nobody holds (the devnet sends its 0G record by impersonation, see sendAsImpersonated).
 */
export function seedProviderAddress(providerIdentity: string): Address {
  return getAddress(`0x${labelledPrivateKey(`provider ${providerIdentity}`).slice(-40)}`)
}
