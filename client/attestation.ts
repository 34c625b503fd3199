// `tee-market/attestation`: build, parse, recover and verify attestations locally (no network),
// under the on-chain verifier's rules; runs in browsers.
export { buildAttestationText } from '../chain/attestation/buildAttestationText.ts'
export type { BuildAttestationTextParameters, BuildAttestationTextReturnType } from '../chain/attestation/buildAttestationText.ts'
export { parseAttestationText } from '../chain/attestation/parseAttestationText.ts'
export type { ParseAttestationTextReturnType } from '../chain/attestation/parseAttestationText.ts'
export { recoverAttestationSigner } from '../chain/attestation/recoverAttestationSigner.ts'
export type {
  AttestationSignatureError,
  RecoverAttestationSignerParameters,
  RecoverAttestationSignerReturnType,
} from '../chain/attestation/recoverAttestationSigner.ts'
export { verifyAttestation } from '../chain/attestation/verifyAttestation.ts'
export type { VerifyAttestationParameters, VerifyAttestationReturnType } from '../chain/attestation/verifyAttestation.ts'
export { verifyJobAttestationOffline } from './verifyJobAttestationOffline.ts'
export type {
  VerifyJobAttestationOfflineParameters,
  VerifyJobAttestationOfflineReturnType,
} from './verifyJobAttestationOffline.ts'
export type { AttestationFields } from '../contract/attestation.ts'
export { InvalidAttestationFieldError } from '../errors/attestation.ts'
export { AttestationMissingError } from '../errors/mcp.ts'
