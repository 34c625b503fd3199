import type { Collateral } from '@phala/dcap-qvl'
import type { Address, Hex } from 'viem'
import type { TeeCheck, TeeCheckName, TeeCheckStatus } from '../contract/tee.ts'
import { BaseError } from '../errors/BaseError.ts'
import { TeeTcbNotAcceptedError, TeeTcbUnlistedError } from '../errors/tee.ts'
import type { CheckGpuEvidenceReturnType } from './checkGpuEvidence.ts'
import type { TcbPolicy } from './defaultTcbPolicy.ts'
import type { AttestationReport } from './parseAttestationReport.ts'
import type { TdxMeasurements } from './parseTdxQuote.ts'
import { readComposeHash } from './readComposeHash.ts'
import { readReportDataBinding } from './readReportDataBinding.ts'
import { type VerifyTdxQuoteReturnType, verifyTdxQuote } from './verifyTdxQuote.ts'

export type { TeeCheck, TeeCheckName, TeeCheckStatus }

/** Known-good measurements; without one, measurements are recorded but not judged. */
export type TeeAllowList = { composeHashes?: readonly Hex[] | undefined; mrTds?: readonly Hex[] | undefined }

export type CheckTeeEvidenceParameters = {
  report: AttestationReport
  collateral: Collateral
  now: Date
  /** The service's registered signing address: the key the quote must name. */
  signingAddress: Address
  /** The nonce sent with the report request, when the server takes one. */
  nonce?: Hex | undefined
  policy?: TcbPolicy | undefined
  rootCa?: Uint8Array | undefined
  allowList?: TeeAllowList | undefined
  /** The `gpu` check's outcome: `checkGpuEvidence`'s, or the caller's reason it was not run. */
  gpu: CheckGpuEvidenceReturnType
  /** 0G's `TargetSeparated`: the TEE runs a proxy and the model runs upstream. */
  targetSeparated?: boolean | undefined
}

export type CheckTeeEvidenceReturnType = {
  checks: TeeCheck[]
  measurements: (TdxMeasurements & { composeHash: Hex | undefined }) | undefined
  tcbStatus: string | undefined
  advisoryIds: string[]
  collateralExpiresAt: Date | undefined
}

const reasonOf = (error: unknown) => (error instanceof BaseError ? error.message : `Unexpected error: ${(error as Error).message}`)

type QuoteChecks = {
  checks: TeeCheck[]
  verified: VerifyTdxQuoteReturnType | undefined
  /** The platform's rating, also when the policy refused it: a buyer should see what was refused. */
  tcb: { status: string; advisoryIds: string[] } | undefined
}

function quoteChecks(parameters: CheckTeeEvidenceParameters): QuoteChecks {
  const { report, collateral, now, policy, rootCa } = parameters
  try {
    const verified = verifyTdxQuote({ quote: report.quote, collateral, now, policy, rootCa })
    const how = verified.tcbAcceptedBy === 'status' ? 'an accepted status' : `accepted for its allowed advisories (${verified.advisoryIds.join(', ')})`
    return {
      verified,
      tcb: { status: verified.tcbStatus, advisoryIds: verified.advisoryIds },
      checks: [
        { name: 'quote', status: 'pass', reason: `A TDX quote (version ${verified.version}, not a debug TD) signed through Intel's PCK chain to the trusted root, with fresh collateral.` },
        { name: 'tcb', status: 'pass', reason: `TCB status ${verified.tcbStatus}: ${how}.` },
      ],
    }
  } catch (error) {
    const tcb = error instanceof TeeTcbNotAcceptedError || error instanceof TeeTcbUnlistedError
    return {
      verified: undefined,
      tcb: error instanceof TeeTcbNotAcceptedError ? { status: error.status, advisoryIds: [...error.advisoryIds] } : undefined,
      checks: tcb
        ? [
            { name: 'quote', status: 'pass', reason: "The quote is signed through Intel's PCK chain to the trusted root." },
            { name: 'tcb', status: 'fail', reason: reasonOf(error) },
          ]
        : [
            { name: 'quote', status: 'fail', reason: reasonOf(error) },
            { name: 'tcb', status: 'skip', reason: 'The quote did not verify, so its TCB status is not known.' },
          ],
    }
  }
}

function bindingCheck(verified: VerifyTdxQuoteReturnType, { signingAddress, nonce }: CheckTeeEvidenceParameters): TeeCheck {
  try {
    const { layout, nonceBound } = readReportDataBinding(verified.reportData, { signingAddress, nonce })
    const fresh = nonceBound ? ', with the nonce we sent' : '; no nonce: the quote may be a replay of an earlier one'
    return { name: 'binding', status: 'pass', reason: `report_data names ${signingAddress} (${layout} layout)${fresh}.` }
  } catch (error) {
    return { name: 'binding', status: 'fail', reason: reasonOf(error) }
  }
}

function appraisalCheck(measurements: TdxMeasurements, composeHash: Hex | undefined, allowList: TeeAllowList | undefined): TeeCheck {
  const lists = [
    ['compose hash', composeHash, allowList?.composeHashes],
    ['MRTD', measurements.mrTd, allowList?.mrTds],
  ] as const
  const judged = lists.filter(([, , list]) => list !== undefined && list.length > 0)
  if (judged.length === 0) return { name: 'appraisal', status: 'skip', reason: 'Measured, not appraised: no allow-list of compose hashes or MRTDs is set.' }
  const outside = judged.filter(([, value, list]) => value === undefined || !list!.some((v) => v.toLowerCase() === value))
  if (outside.length > 0) {
    return { name: 'appraisal', status: 'fail', reason: outside.map(([what, value]) => `${what} ${value ?? '(none)'} is not on the allow-list`).join('; ') + '.' }
  }
  return { name: 'appraisal', status: 'pass', reason: `${judged.map(([what]) => what).join(' and ')} on the allow-list.` }
}

/**
 * Runs every check a provider's evidence allows, offline: the quote and its TCB, the key binding,
 * the compose hash, the allow-lists, and says which were skipped (GPU, a TeeTLS proxy) and why.
 * It never throws for bad evidence: each refusal is a failed check with its reason.
 */
export function checkTeeEvidence(parameters: CheckTeeEvidenceParameters): CheckTeeEvidenceReturnType {
  const { report, allowList, gpu, targetSeparated } = parameters
  const { checks, verified, tcb } = quoteChecks(parameters)
  let composeHash: Hex | undefined
  if (verified === undefined) {
    const reason = 'The quote did not verify: its report_data and measurements are not evidence.'
    checks.push({ name: 'binding', status: 'skip', reason }, { name: 'compose', status: 'skip', reason }, { name: 'appraisal', status: 'skip', reason })
  } else {
    checks.push(bindingCheck(verified, parameters))
    try {
      const compose = readComposeHash({ measurements: verified.measurements, eventLog: report.eventLog, appCompose: report.appCompose })
      composeHash = compose.composeHash
      const file = compose.appComposeMatches ? ', and sha256(app_compose) is that hash' : '; no app_compose was served to show what it is'
      checks.push({ name: 'compose', status: compose.appComposeMatches ? 'pass' : 'skip', reason: `Compose hash ${composeHash} read from ${compose.source}${file}.` })
    } catch (error) {
      checks.push({ name: 'compose', status: 'fail', reason: reasonOf(error) })
    }
    checks.push(appraisalCheck(verified.measurements, composeHash, allowList))
  }
  checks.push({ name: 'gpu', ...gpu })
  if (targetSeparated === true) {
    checks.push({ name: 'teeTls', status: 'skip', reason: 'TeeTLS provider (TargetSeparated): the TEE attests the proxy; the model runs upstream, outside it.' })
  }
  return {
    checks,
    measurements: verified === undefined ? undefined : { ...verified.measurements, composeHash },
    tcbStatus: tcb?.status,
    advisoryIds: tcb?.advisoryIds ?? [],
    collateralExpiresAt: verified?.collateralExpiresAt,
  }
}
