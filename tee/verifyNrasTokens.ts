import type { KeyObject } from 'node:crypto'
import { quoteUntrustedText } from '../contract/quoteUntrustedText.ts'
import { TeeGpuNotAttestedError } from '../errors/tee.ts'
import type { NrasTokens } from './requestNrasAttestation.ts'
import { verifyEs384Jwt } from './verifyEs384Jwt.ts'

export type VerifyNrasTokensParameters = {
  tokens: NrasTokens
  /** The nonce of the payload sent (64 lowercase hex): the one NRAS must have found in every GPU's report. */
  nonce: string
  keyFor: (kid: string) => Promise<KeyObject | undefined>
  now: Date
}

/** The GPUs NRAS attested, by its names for them (`GPU-0`, …). */
export type VerifyNrasTokensReturnType = { gpus: string[] }

export type VerifyNrasTokensErrorType = TeeGpuNotAttestedError

const quoted = (value: unknown) => quoteUntrustedText(String(value).slice(0, 80))

function checkNonce(name: string, claims: Record<string, unknown>, nonce: string): void {
  const eatNonce = typeof claims.eat_nonce === 'string' ? claims.eat_nonce.toLowerCase() : undefined
  if (eatNonce !== nonce) throw new TeeGpuNotAttestedError({ reason: `the ${name} token's eat_nonce ${quoted(claims.eat_nonce)} is not the payload's nonce ${nonce}` })
}

/**
 * Judges NRAS's answer, each token's signature verified first: the overall EAT's
 * `x-nvidia-overall-att-result` is true and its `eat_nonce` is the payload's nonce (NEAR's and
 * Phala's verifiers read the same claims); every GPU's detached EAT carries that nonce too and a
 * `measres` of `success` (NRAS's per-GPU appraisal of its measurements against NVIDIA's reference
 * values). A refusal is a `TeeGpuNotAttestedError` naming the claim; a token that does not verify,
 * a `TeeGpuTokenInvalidError`.
 */
export async function verifyNrasTokens({ tokens, nonce, keyFor, now }: VerifyNrasTokensParameters): Promise<VerifyNrasTokensReturnType> {
  const overall = await verifyEs384Jwt({ token: tokens.overall, name: 'overall', keyFor, now })
  const gpus = Object.entries(tokens.gpus)
  const gpuClaims = await Promise.all(gpus.map(([name, token]) => verifyEs384Jwt({ token, name, keyFor, now })))
  checkNonce('overall', overall, nonce)
  if (overall['x-nvidia-overall-att-result'] !== true) {
    throw new TeeGpuNotAttestedError({ reason: `NRAS's overall result (x-nvidia-overall-att-result) is ${quoted(overall['x-nvidia-overall-att-result'])}, not true` })
  }
  gpus.forEach(([name], index) => {
    const claims = gpuClaims[index] as Record<string, unknown>
    checkNonce(name, claims, nonce)
    if (typeof claims.measres !== 'string' || claims.measres.toLowerCase() !== 'success') {
      throw new TeeGpuNotAttestedError({ reason: `${name}'s measurement result (measres) is ${quoted(claims.measres)}, not success` })
    }
  })
  return { gpus: gpus.map(([name]) => name) }
}
