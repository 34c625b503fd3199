import { type Address, type Hex, getAddress, isAddressEqual, size } from 'viem'
import type { VerifyAttestationResult } from '../../contract/mcp.ts'
import { parseAttestationText } from './parseAttestationText.ts'
import {
  type AttestationSignatureError,
  recoverAttestationSigner,
} from './recoverAttestationSigner.ts'

export type VerifyAttestationParameters = {
  /** The attestation text as 0x hex of its exact bytes. */
  text: Hex
  /** The attestation signature as 0x hex. */
  signature: Hex
  /** The service's current `signingAddress` from the registry. */
  expectedSigner: Address
  /** The `recoveredSigner` of the job's `JobAttested` event, when known. */
  attestedSigner?: Address | undefined
}

/** The `verify_attestation` result without `jobId`, which the caller knows and adds. */
export type VerifyAttestationReturnType = Omit<VerifyAttestationResult, 'jobId'>

/**
 * Checks an attestation against the registry's current `signingAddress` by pure local
 * recovery (no network call), with the same answer the on-chain verifier gives.
 */
export function verifyAttestation({
  text,
  signature,
  expectedSigner,
  attestedSigner,
}: VerifyAttestationParameters): VerifyAttestationReturnType {
  const expected = getAddress(expectedSigner)
  const { signer, error } = recoverAttestationSigner({ text, signature })
  // The signature covers the raw bytes, so an unparsable text is reported but does not fail it.
  const textNote =
    parseAttestationText(text) === null
      ? ' The attestation text does not parse as the five-field format (the signature covers its bytes as they are).'
      : ''

  if (signer === null) {
    return {
      ok: false,
      recoveredSigner: null,
      expectedSigner: expected,
      note: `The signature is malformed: ${describeSignatureError(error, size(signature))}, so no signer can be recovered.${textNote}`,
    }
  }
  if (isAddressEqual(signer, expected)) {
    return {
      ok: true,
      recoveredSigner: signer,
      expectedSigner: expected,
      note: `The signature recovers to ${signer}, the service's registered signingAddress.${textNote}`,
    }
  }
  const rotated = attestedSigner !== undefined && isAddressEqual(signer, attestedSigner)
  return {
    ok: false,
    recoveredSigner: signer,
    expectedSigner: expected,
    note: rotated
      ? `The job was signed by ${signer}, the key recorded when the job was attested; the service has since rotated its signing key to ${expected}.${textNote}`
      : `The signature recovers to ${signer}, which is not the service's registered signingAddress ${expected}.${textNote}`,
  }
}

function describeSignatureError(error: AttestationSignatureError, length: number): string {
  switch (error) {
    case 'invalid_signature_length':
      return `it is ${length} bytes long where r‖s‖v takes exactly 65 (invalid_signature_length)`
    case 'invalid_signature_s':
      return 's is in the upper half of the curve order, which makes it malleable (invalid_signature_s)'
    case 'invalid_signature':
      return 'ecrecover rejects it: v must be 27 or 28, r and s must be non-zero and below the curve order, and r must be a point on the curve (invalid_signature)'
  }
}
