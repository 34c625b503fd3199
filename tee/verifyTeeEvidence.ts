import { hexToBytes } from 'viem'
import type { TeeEvidence, TeeVerdict } from '../contract/tee.ts'
import { type TeeAllowList, checkTeeEvidence } from './checkTeeEvidence.ts'
import type { TcbPolicy } from './defaultTcbPolicy.ts'
import { teeVerdict } from './teeVerdict.ts'
import { toDcapCollateral } from './toDcapCollateral.ts'

export type VerifyTeeEvidenceParameters = {
  evidence: TeeEvidence
  /** The time to verify at; the evidence's `fetchedAt` by default (its collateral was valid then). */
  at?: Date | undefined
  policy?: TcbPolicy | undefined
  allowList?: TeeAllowList | undefined
  /**
   * DER of the root to trust; Intel's when absent. The evidence's own `rootCa` is never trusted
   * for being in the file: whoever wrote the file chose it.
   */
  rootCa?: Uint8Array | undefined
  /** Default 1 hour, as a verdict's. */
  maxAgeMs?: number | undefined
}

export type VerifyTeeEvidenceReturnType = TeeVerdict

const offline = "Offline: the provider's 0G record is not part of the evidence, so it and its TEE signer are not checked."
const gpuOffline = "Offline: NRAS's answer is not part of the evidence, so GPU evidence is not checked again."

/**
 * Re-verifies recorded evidence with the checks `checkServiceTee` ran (quote, TCB, binding with the
 * nonce sent, compose, appraisal), at `at`. The 0G record and NRAS's answer are not in the
 * evidence: their checks say so, and the verdict rests on the evidence alone.
 */
export function verifyTeeEvidence({ evidence, at = new Date(evidence.fetchedAt), policy, allowList, rootCa, maxAgeMs = 3_600_000 }: VerifyTeeEvidenceParameters): VerifyTeeEvidenceReturnType {
  const common = { serviceId: evidence.serviceId, signingAddress: evidence.signingAddress, record: { unknown: offline }, checkedAt: at, maxAgeMs }
  if (evidence.collateral === null) return teeVerdict({ ...common, evidence: { unreachable: 'no collateral was recorded with this evidence.' } })
  const checked = checkTeeEvidence({
    report: {
      quote: hexToBytes(evidence.quote),
      eventLog: evidence.eventLog ?? undefined,
      appCompose: evidence.appCompose ?? undefined,
      claimedSigningAddress: undefined,
      claimedNonce: undefined,
      nvidiaPayload: undefined,
      vmConfig: undefined,
    },
    collateral: toDcapCollateral(evidence.collateral),
    now: at,
    signingAddress: evidence.signingAddress,
    nonce: evidence.nonce ?? undefined,
    policy,
    allowList,
    rootCa,
    gpu: { status: 'skip', reason: gpuOffline },
  })
  return teeVerdict({ ...common, evidence: checked })
}
