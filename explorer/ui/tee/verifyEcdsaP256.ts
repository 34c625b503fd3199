import { p256 } from '@noble/curves/nist'

/**
 * Whether `signature` (DER) over `data` (hashed with SHA-256) is `publicKey`'s, as Intel signs
 * certificates and CRLs. noble's curves, not WebCrypto: `crypto.subtle` exists only in a secure
 * context, and an indexer may serve its explorer over plain http; viem bundles the same package.
 */
export function verifyEcdsaP256({ publicKey, data, signature }: { publicKey: Uint8Array; data: Uint8Array; signature: Uint8Array }): boolean {
  try {
    return p256.verify(signature, data, publicKey, { prehash: true, format: 'der' })
  } catch {
    return false
  }
}
