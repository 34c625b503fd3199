import type { Address } from 'viem'
import type { TeeProviderRecord, TeeVerdict, TeeVerdictName } from '../contract/tee.ts'
import type { CheckTeeEvidenceReturnType, TeeCheck, TeeCheckName } from './checkTeeEvidence.ts'

export type { TeeProviderRecord, TeeVerdictName }

export type TeeVerdictParameters = {
  serviceId: string
  /** The service's registered signing address. */
  signingAddress: Address
  /**
   * The provider's 0G record; undefined: it has none; `{ unknown }`: it could not be read (the
   * chain did not answer) or is not part of what is judged (offline re-verification), and why.
   */
  record: TeeProviderRecord | undefined | { unknown: string }
  /** The checks of the fetched evidence, or why no evidence could be fetched now. */
  evidence: CheckTeeEvidenceReturnType | { unreachable: string }
  checkedAt: Date
  /** The longest a verdict stands before it is checked again. */
  maxAgeMs: number
}

/** The contract's shape (contract/tee.ts), defined there once. */
export type TeeVerdictReturnType = TeeVerdict

/** All must pass for `verified`; `registrySigner` too when the record names a signer. */
const required: readonly TeeCheckName[] = ['quote', 'tcb', 'binding', 'compose']

function recordChecks(signingAddress: Address, record: TeeVerdictParameters['record']): TeeCheck[] {
  if (record !== undefined && 'unknown' in record) {
    return [
      { name: 'provider', status: 'skip', reason: record.unknown },
      { name: 'registrySigner', status: 'skip', reason: "The 0G record's TEE signer is not known here." },
    ]
  }
  if (record === undefined) return [{ name: 'provider', status: 'fail', reason: "The service's provider has no record on 0G's InferenceServing contract." }]
  const provider: TeeCheck = { name: 'provider', status: 'pass', reason: `The provider has a record on 0G${record.teeSignerAcknowledged ? "; the contract's owner acknowledged its TEE signer" : ''}.` }
  if (record.teeSignerAddress === null) return [provider, { name: 'registrySigner', status: 'skip', reason: 'The 0G record names no TEE signer.' }]
  const same = record.teeSignerAddress.toLowerCase() === signingAddress.toLowerCase()
  return [
    provider,
    same
      ? { name: 'registrySigner', status: 'pass', reason: `0G's teeSignerAddress is the service's signing address ${signingAddress}.` }
      : { name: 'registrySigner', status: 'fail', reason: `0G's teeSignerAddress ${record.teeSignerAddress} is not the service's signing address ${signingAddress}.` },
  ]
}

/**
 * Combines the record and the evidence's checks into a verdict:
 * - `none`: no provider record, so there is nothing to check the service against;
 * - `failed`: some check failed, i.e. the evidence contradicts the service (a bad quote, another
 *   key, a TCB or measurement outside the policy): it wins over an acknowledgement, because the
 *   evidence is what the acknowledgement stood for;
 * - `verified`: quote, TCB, binding, compose hash (and the 0G signer, when named) all pass;
 * - `acknowledged`: nothing failed but our check could not complete (no evidence now, or a part
 *   not served), and 0G's owner acknowledged this very signer;
 * - `unreachable`: the same without the acknowledgement.
 * It expires at `maxAgeMs` or when the collateral it rests on does, whichever is first.
 */
export function teeVerdict({ serviceId, signingAddress, record, evidence, checkedAt, maxAgeMs }: TeeVerdictParameters): TeeVerdictReturnType {
  const unreachable = 'unreachable' in evidence
  const checks = recordChecks(signingAddress, record).concat(
    unreachable ? [{ name: 'quote', status: 'skip', reason: `No evidence could be fetched: ${evidence.unreachable}` }] : evidence.checks,
  )
  const statusOf = (name: TeeCheckName) => checks.find((c) => c.name === name)?.status
  const needed = statusOf('registrySigner') === 'skip' ? required : [...required, 'registrySigner' as const]
  const known = record !== undefined && !('unknown' in record) ? record : undefined
  const acknowledged = known?.teeSignerAcknowledged === true && statusOf('registrySigner') === 'pass'
  const failed = checks.filter((c) => c.status === 'fail' && c.name !== 'provider')
  const verdict: TeeVerdictName =
    record === undefined ? 'none'
    : failed.length > 0 ? 'failed'
    : needed.every((name) => statusOf(name) === 'pass') ? 'verified'
    : acknowledged ? 'acknowledged'
    : 'unreachable'
  const expiries = [checkedAt.getTime() + maxAgeMs]
  if (!unreachable && evidence.collateralExpiresAt !== undefined) expiries.push(evidence.collateralExpiresAt.getTime())
  const appraised = checks.find((c) => c.name === 'appraisal')?.status === 'pass'
  const summaries: Record<TeeVerdictName, string> = {
    none: "No TEE evidence: the provider has no record on 0G.",
    failed: `The TEE evidence contradicts this service: ${failed.map((c) => c.name).join(', ')} failed.`,
    verified: `The signing key lives in an Intel TDX guest running the measured compose file${appraised ? ', on the allow-list' : ' (measured, not appraised)'}.`,
    acknowledged: "0G's owner acknowledged this signer; our own check of it could not complete.",
    unreachable: unreachable
      ? `No TEE evidence could be fetched now: ${evidence.unreachable}`
      : `The TEE evidence is incomplete: ${needed.filter((name) => statusOf(name) !== 'pass').join(', ')} not established.`,
  }
  const measured = unreachable ? undefined : evidence.measurements
  return {
    serviceId,
    signingAddress,
    verdict,
    summary: summaries[verdict],
    checks,
    checkedAt: checkedAt.toISOString(),
    expiresAt: new Date(Math.min(...expiries)).toISOString(),
    measurements:
      measured === undefined
        ? null
        : { mrTd: measured.mrTd, rtmr0: measured.rtmr0, rtmr1: measured.rtmr1, rtmr2: measured.rtmr2, rtmr3: measured.rtmr3, mrConfigId: measured.mrConfigId, composeHash: measured.composeHash ?? null },
    tcbStatus: unreachable ? null : (evidence.tcbStatus ?? null),
    advisoryIds: unreachable ? [] : evidence.advisoryIds,
    provider: known ?? null,
  }
}
