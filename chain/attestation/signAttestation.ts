import type { Hex, LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

export type SignAttestationParameters = {
  /** The attestation text as 0x hex of its exact bytes (see `buildAttestationText`). */
  text: Hex
}

/** 65 bytes r‖s‖v as 0x hex, v = 27 or 28, s in the lower half of the curve order. */
export type SignAttestationReturnType = Hex

/**
 * Signs the EIP-191 personal-message hash of the text bytes, as the seller's TEE does. The
 * result passes the on-chain verifier when the account is the service's `signingAddress`.
 */
export async function signAttestation(
  account: LocalAccount | Hex,
  { text }: SignAttestationParameters,
): Promise<SignAttestationReturnType> {
  const signer = typeof account === 'string' ? privateKeyToAccount(account) : account
  return signer.signMessage({ message: { raw: text } })
}
