import { secp256k1 } from '@noble/curves/secp256k1'
import { type Address, type Hex, bytesToBigInt, bytesToHex, hashMessage, hexToBytes } from 'viem'
import { publicKeyToAddress } from 'viem/accounts'

export type RecoverAttestationSignerParameters = {
  /** The attestation text as 0x hex of its exact bytes (as stored on chain). */
  text: Hex
  /** The attestation signature as 0x hex; any length, malformed ones included. */
  signature: Hex
}

/**
 * Mirrors OpenZeppelin's `ECDSA.RecoverError` (minus `NoError`): `invalid_signature_length`
 * (not 65 bytes), `invalid_signature_s` (s in the upper half of the order), `invalid_signature`
 * (ecrecover returned nothing).
 */
export type AttestationSignatureError =
  | 'invalid_signature_length'
  | 'invalid_signature_s'
  | 'invalid_signature'

export type RecoverAttestationSignerReturnType =
  | { signer: Address; error: null }
  | { signer: null; error: AttestationSignatureError }

const curveOrder = secp256k1.CURVE.n
const halfCurveOrder = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

/**
 * Recovers the signer of an attestation locally, with no network call, under exactly the rules
 * of the on-chain verifier (OpenZeppelin `ECDSA.tryRecover` over the EIP-191 hash of the text
 * bytes, backed by the ecrecover precompile), so that off-chain and on-chain answers agree for
 * every input. viem's `recoverMessageAddress` is not used because it also accepts v = 0/1 and
 * high s, which the chain rejects.
 */
export function recoverAttestationSigner({
  text,
  signature,
}: RecoverAttestationSignerParameters): RecoverAttestationSignerReturnType {
  const bytes = hexToBytes(signature)
  if (bytes.length !== 65) return { signer: null, error: 'invalid_signature_length' }

  const r = bytesToBigInt(bytes.subarray(0, 32))
  const s = bytesToBigInt(bytes.subarray(32, 64))
  const v = bytes[64]
  // OpenZeppelin checks s before handing anything to ecrecover, so a high s wins over a bad v.
  if (s > halfCurveOrder) return { signer: null, error: 'invalid_signature_s' }
  // The precompile returns nothing for these; OpenZeppelin turns that into InvalidSignature.
  if (v !== 27 && v !== 28) return { signer: null, error: 'invalid_signature' }
  if (r === 0n || r >= curveOrder || s === 0n) return { signer: null, error: 'invalid_signature' }

  try {
    const publicKey = new secp256k1.Signature(r, s)
      .addRecoveryBit(v - 27)
      .recoverPublicKey(hashMessage({ raw: text }).slice(2))
      .toRawBytes(false)
    return { signer: publicKeyToAddress(bytesToHex(publicKey)), error: null }
  } catch {
    // r is not the x coordinate of a curve point, or the recovered point is at infinity.
    return { signer: null, error: 'invalid_signature' }
  }
}
