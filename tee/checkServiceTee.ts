import type { Address } from 'viem'
import type { TeeCollateral, TeeEvidence, TeeProviderRecord, TeeVerdict } from '../contract/tee.ts'
import { BaseError } from '../errors/BaseError.ts'
import { checkGpuEvidence } from './checkGpuEvidence.ts'
import { type CheckTeeEvidenceReturnType, type TeeAllowList, checkTeeEvidence } from './checkTeeEvidence.ts'
import type { GpuVerifier } from './createGpuVerifier.ts'
import type { TcbPolicy } from './defaultTcbPolicy.ts'
import { type FetchAttestationReportParameters, type FetchAttestationReportReturnType, fetchAttestationReport } from './fetchAttestationReport.ts'
import { type ReadCollateralKeyReturnType, readCollateralKey } from './readCollateralKey.ts'
import { teeVerdict } from './teeVerdict.ts'
import { toDcapCollateral } from './toDcapCollateral.ts'
import { toTeeEvidence } from './toTeeEvidence.ts'

export type CheckServiceTeeParameters = {
  service: { serviceId: string; providerAddress: Address; signingAddress: Address }
  /** The provider's 0G record (e.g. `readProviderRecord` bound to a client and contract); undefined when it has none. */
  readRecord: (provider: Address) => Promise<TeeProviderRecord | undefined>
  /** Default `fetchAttestationReport`. */
  fetchReport?: ((parameters: FetchAttestationReportParameters) => Promise<FetchAttestationReportReturnType>) | undefined
  /** The collateral of the quote's platform (e.g. a collateral cache's `get`, bound to the operator's PCS). */
  collateral: (key: ReadCollateralKeyReturnType) => Promise<{ collateral: TeeCollateral }>
  now?: (() => Date) | undefined
  policy?: TcbPolicy | undefined
  allowList?: TeeAllowList | undefined
  /** DER of a root other than Intel's: the devnet's, on its own chain only. */
  rootCa?: Uint8Array | undefined
  /** The longest a verdict stands. */
  maxAgeMs: number
  /** Let the report fetch reach non-public addresses: the devnet's loopback, never by default. */
  allowPrivate?: boolean | undefined
  /** The operator's NRAS, to check NVIDIA GPU evidence with; undefined: the `gpu` check is skipped. */
  gpuVerifier?: GpuVerifier | undefined
}

export type CheckServiceTeeReturnType = {
  verdict: TeeVerdict
  /** What was fetched, whenever a quote was: for `GET /v1/services/:id/tee/evidence` and offline re-verification. */
  evidence: TeeEvidence | undefined
}

const reasonOf = (error: unknown) => (error instanceof BaseError ? error.message : `Unexpected error: ${error instanceof Error ? error.message : String(error)}.`)

function unreadableQuote(reason: string): CheckTeeEvidenceReturnType {
  const skipped = 'The quote could not be read: its report_data and measurements are not evidence.'
  return {
    checks: [
      { name: 'quote', status: 'fail', reason },
      { name: 'tcb', status: 'skip', reason: 'The quote could not be read, so its TCB status is not known.' },
      ...(['binding', 'compose', 'appraisal'] as const).map((name) => ({ name, status: 'skip' as const, reason: skipped })),
    ],
    measurements: undefined,
    tcbStatus: undefined,
    advisoryIds: [],
    collateralExpiresAt: undefined,
  }
}

/**
 * Judges one service's TEE: its provider's 0G record (none: `none`, nothing fetched), the
 * attestation report at the record's URL (fetched as from a hostile peer, with a fresh nonce),
 * the collateral of the quote's platform, the GPU evidence through the operator's NRAS (when
 * opted in: `checkGpuEvidence`), then every check of `checkTeeEvidence`. A report or
 * collateral that cannot be had makes it `unreachable` (or `acknowledged`) with the reason. Never
 * throws for what a provider serves.
 */
export async function checkServiceTee(parameters: CheckServiceTeeParameters): Promise<CheckServiceTeeReturnType> {
  const { service, readRecord, fetchReport = fetchAttestationReport, now = () => new Date(), maxAgeMs, allowPrivate = false } = parameters
  const judge = (record: Parameters<typeof teeVerdict>[0]['record'], evidence: CheckTeeEvidenceReturnType | { unreachable: string }) =>
    teeVerdict({ serviceId: service.serviceId, signingAddress: service.signingAddress, record, evidence, checkedAt: now(), maxAgeMs })
  let record: TeeProviderRecord | undefined
  try {
    record = await readRecord(service.providerAddress)
  } catch (error) {
    const reason = reasonOf(error)
    return { verdict: judge({ unknown: reason }, { unreachable: reason }), evidence: undefined }
  }
  if (record === undefined) return { verdict: judge(undefined, { unreachable: 'the provider has no record on 0G.' }), evidence: undefined }
  let fetched: FetchAttestationReportReturnType
  try {
    fetched = await fetchReport({ url: record.url, model: record.model, allowPrivate })
  } catch (error) {
    return { verdict: judge(record, { unreachable: reasonOf(error) }), evidence: undefined }
  }
  const evidenceWith = (collateral: TeeCollateral | null) => toTeeEvidence({ service, fetched, collateral, rootCa: parameters.rootCa })
  let key: ReadCollateralKeyReturnType
  try {
    key = readCollateralKey(fetched.report.quote)
  } catch (error) {
    // Not a quote at all: bad evidence, as checkTeeEvidence judges a quote that does not parse.
    return { verdict: judge(record, unreadableQuote(reasonOf(error))), evidence: evidenceWith(null) }
  }
  let collateral: TeeCollateral
  try {
    collateral = (await parameters.collateral(key)).collateral
  } catch (error) {
    return { verdict: judge(record, { unreachable: reasonOf(error) }), evidence: evidenceWith(null) }
  }
  const nonce = fetched.nonce ?? undefined
  const gpu = await checkGpuEvidence({ verifier: parameters.gpuVerifier, nvidiaPayload: fetched.report.nvidiaPayload, nonce, now: now() })
  const checked = checkTeeEvidence({
    report: fetched.report,
    collateral: toDcapCollateral(collateral),
    now: now(),
    signingAddress: service.signingAddress,
    nonce,
    policy: parameters.policy,
    rootCa: parameters.rootCa,
    allowList: parameters.allowList,
    gpu,
    targetSeparated: record.targetSeparated,
  })
  return { verdict: judge(record, checked), evidence: evidenceWith(collateral) }
}
