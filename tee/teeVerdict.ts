import type { Address } from 'viem'
import type { TeeVerdictName } from '../contract/tee.ts'
import type { CheckTeeEvidenceReturnType, TeeCheck, TeeCheckName } from './checkTeeEvidence.ts'

export type { TeeVerdictName }

/** The provider's record on 0G's `InferenceServing` (`getService`), as far as the verdict needs it. */
export type TeeProviderRecord = {
  teeSignerAddress: Address | undefined
  teeSignerAcknowledged: boolean
}

export type TeeVerdictParameters = {
  /** The service's registered signing address. */
  signingAddress: Address
  /** Absent: the service's provider has no record on 0G. */
  record: TeeProviderRecord | undefined
  /** The checks of the fetched evidence, or why no evidence could be fetched now. */
  evidence: CheckTeeEvidenceReturnType | { unreachable: string }
  checkedAt: Date
  /** The longest a verdict stands before it is checked again. */
  maxAgeMs: number
}

export type TeeVerdictReturnType = {
  verdict: TeeVerdictName
  /** One sentence for a badge's tooltip or an agent. */
  summary: string
  checks: TeeCheck[]
  checkedAt: string
  expiresAt: string
  measurements: CheckTeeEvidenceReturnType['measurements']
}

/** All must pass for `verified`; `registrySigner` too when the record names a signer. */
const required: readonly TeeCheckName[] = ['quote', 'tcb', 'binding', 'compose']

function recordChecks(signingAddress: Address, record: TeeProviderRecord | undefined): TeeCheck[] {
  if (record === undefined) return [{ name: 'provider', status: 'fail', reason: "The service's provider has no record on 0G's InferenceServing contract." }]
  const provider: TeeCheck = { name: 'provider', status: 'pass', reason: `The provider has a record on 0G${record.teeSignerAcknowledged ? "; the contract's owner acknowledged its TEE signer" : ''}.` }
  if (record.teeSignerAddress === undefined) return [provider, { name: 'registrySigner', status: 'skip', reason: 'The 0G record names no TEE signer.' }]
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
export function teeVerdict({ signingAddress, record, evidence, checkedAt, maxAgeMs }: TeeVerdictParameters): TeeVerdictReturnType {
  const unreachable = 'unreachable' in evidence
  const checks = recordChecks(signingAddress, record).concat(
    unreachable ? [{ name: 'quote', status: 'skip', reason: `No evidence could be fetched: ${evidence.unreachable}` }] : evidence.checks,
  )
  const statusOf = (name: TeeCheckName) => checks.find((c) => c.name === name)?.status
  const needed = statusOf('registrySigner') === 'skip' ? required : [...required, 'registrySigner' as const]
  const acknowledged = record?.teeSignerAcknowledged === true && statusOf('registrySigner') === 'pass'
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
  return {
    verdict,
    summary: summaries[verdict],
    checks,
    checkedAt: checkedAt.toISOString(),
    expiresAt: new Date(Math.min(...expiries)).toISOString(),
    measurements: unreachable ? undefined : evidence.measurements,
  }
}
