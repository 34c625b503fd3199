import type { Hex } from 'viem'
import type { TeeCheckStatus } from '../contract/tee.ts'
import { TeeFetchError, TeeGpuEvidenceMalformedError, TeeGpuNotAttestedError, TeeGpuTokenInvalidError } from '../errors/tee.ts'
import type { GpuVerifier } from './createGpuVerifier.ts'
import { readNvidiaPayload } from './readNvidiaPayload.ts'
import { requestNrasAttestation } from './requestNrasAttestation.ts'
import { verifyNrasTokens } from './verifyNrasTokens.ts'

export type CheckGpuEvidenceParameters = {
  /** The operator's NRAS; undefined: not opted in, the check is skipped. */
  verifier: GpuVerifier | undefined
  /** The report's `nvidia_payload`, as served. */
  nvidiaPayload: string | undefined
  /** The nonce we sent the provider; undefined when its endpoint takes none (0G's /v1/quote). */
  nonce: Hex | undefined
  now: Date
}

/** The `gpu` check's outcome, as `checkTeeEvidence` takes it. */
export type CheckGpuEvidenceReturnType = { status: TeeCheckStatus; reason: string }

const optIn = 'an operator opts in with --tee-gpu-verifier (TEE_GPU_VERIFIER), e.g. https://nras.attestation.nvidia.com'

/**
 * The `gpu` check: the provider's NVIDIA evidence sent to the operator's NRAS and its signed answer
 * judged. `pass`: NRAS attests every GPU with the payload's nonce, and the payload's nonce is the
 * one we sent (when we sent one). `fail`: the evidence is unusable, carries another nonce than ours
 * (a replayed GPU report), NRAS refuses it, or its token does not verify. `skip`: not opted in, no
 * GPU evidence, or NRAS (or its key set) could not be had: NVIDIA's outage is not the provider's
 * failure. Never throws.
 */
export async function checkGpuEvidence({ verifier, nvidiaPayload, nonce, now }: CheckGpuEvidenceParameters): Promise<CheckGpuEvidenceReturnType> {
  if (verifier === undefined) {
    const served = nvidiaPayload === undefined ? 'No GPU evidence was served' : 'GPU evidence (NVIDIA) was served'
    return { status: 'skip', reason: `${served}; it is not checked unless ${optIn}.` }
  }
  if (nvidiaPayload === undefined) return { status: 'skip', reason: 'No GPU evidence was served.' }
  try {
    const { gpus, ours } = await attest(verifier, nvidiaPayload, nonce, now)
    const bound = ours ? 'the nonce we sent' : "the payload's own nonce (none was sent to this provider, so the report may be a replay)"
    return { status: 'pass', reason: `NRAS at ${verifier.baseUrl} attests ${gpus.length} GPU(s) (${gpus.join(', ')}) with ${bound}.` }
  } catch (error) {
    if (error instanceof TeeFetchError) return { status: 'skip', reason: `The GPU evidence could not be checked now: ${error.message}` }
    const refused = error instanceof TeeGpuEvidenceMalformedError || error instanceof TeeGpuNotAttestedError || error instanceof TeeGpuTokenInvalidError
    if (refused) return { status: 'fail', reason: error.message }
    return { status: 'skip', reason: `The GPU evidence could not be checked: unexpected error: ${error instanceof Error ? error.message : String(error)}.` }
  }
}

async function attest(verifier: GpuVerifier, text: string, nonce: Hex | undefined, now: Date): Promise<{ gpus: string[]; ours: boolean }> {
  const payload = readNvidiaPayload(text)
  const sent = nonce?.slice(2).toLowerCase()
  // Checked before NRAS is asked: GPU reports with another nonce are an old report, whatever NRAS says of it.
  if (sent !== undefined && payload.nonce !== sent) {
    throw new TeeGpuNotAttestedError({ reason: `the payload's nonce ${payload.nonce} is not the nonce we sent (${sent}): a replayed GPU report` })
  }
  const { tokens } = await requestNrasAttestation({ ...verifier, payload })
  const { gpus } = await verifyNrasTokens({ tokens, nonce: payload.nonce, keyFor: verifier.keys.keyFor, now })
  return { gpus, ours: sent !== undefined }
}
