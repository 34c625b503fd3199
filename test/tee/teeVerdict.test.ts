import { type Address, getAddress } from 'viem'
import { TeeVerdictSchema } from '../../contract/tee.ts'
import { describe, expect, test } from 'vitest'
import { type CheckTeeEvidenceReturnType, type TeeCheck, checkTeeEvidence } from '../../tee/checkTeeEvidence.ts'
import { parseAttestationReport } from '../../tee/parseAttestationReport.ts'
import { teeVerdict } from '../../tee/teeVerdict.ts'
import { gpuNotChecked, pinnedClock, readCollateral, readQuote } from './support/fixtures.ts'

const signer: Address = getAddress('0x70997970c51812dc3a010c7d01b50e20d7e60a8f')
const recordOf = (teeSignerAddress: Address | null, teeSignerAcknowledged: boolean) => ({ url: 'https://provider.example', model: 'm', verifiability: 'TeeML', targetSeparated: false, teeSignerAddress, teeSignerAcknowledged })
const acknowledged = recordOf(signer, true)
const hour = 3_600_000

const pass = (name: TeeCheck['name']): TeeCheck => ({ name, status: 'pass', reason: `${name} passed` })
const evidenceOf = (checks: TeeCheck[]): CheckTeeEvidenceReturnType => ({
  checks,
  measurements: undefined,
  tcbStatus: 'UpToDate',
  advisoryIds: [],
  collateralExpiresAt: new Date(pinnedClock.getTime() + 2 * hour),
})
const allPass = evidenceOf(['quote', 'tcb', 'binding', 'compose'].map((n) => pass(n as TeeCheck['name'])).concat({ name: 'appraisal', status: 'skip', reason: 'Measured, not appraised.' }))
type Inputs = Parameters<typeof teeVerdict>[0]
/** An acknowledged 0G record unless `record` is given (`undefined` included: no record). */
const verdictOf = (evidence: Inputs['evidence'], ...record: [Inputs['record']] | []) =>
  teeVerdict({ serviceId: '1', signingAddress: signer, record: record.length === 0 ? acknowledged : record[0], evidence, checkedAt: pinnedClock, maxAgeMs: 6 * hour })

test('default: every required check passes: verified, measured but not appraised, expiring with the collateral', () => {
  const verdict = verdictOf(allPass)
  expect(verdict).toMatchObject({ verdict: 'verified', checkedAt: '2025-07-01T00:00:00.000Z', expiresAt: '2025-07-01T02:00:00.000Z' })
  expect(verdict.summary).toContain('measured, not appraised')
  expect(verdict.checks.map((c) => `${c.name}:${c.status}`)).toEqual(['provider:pass', 'registrySigner:pass', 'quote:pass', 'tcb:pass', 'binding:pass', 'compose:pass', 'appraisal:skip'])
})

describe('verdicts', () => {
  test('none: no provider record', () => {
    expect(verdictOf(allPass, undefined).verdict).toBe('none')
  })

  test("failed: 0G's signer is another key, even when acknowledged", () => {
    const verdict = verdictOf(allPass, recordOf(getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'), true))
    expect(verdict.verdict).toBe('failed')
    expect(verdict.summary).toBe('The TEE evidence contradicts this service: registrySigner failed.')
  })

  test('failed beats acknowledged: a contradiction is not covered by the owner\'s word', () => {
    const checks = allPass.checks.map((c) => (c.name === 'binding' ? { ...c, status: 'fail' as const, reason: 'another key' } : c))
    expect(verdictOf(evidenceOf(checks)).verdict).toBe('failed')
  })

  test('acknowledged: nothing could be fetched, and 0G acknowledged this signer; the verdict lasts maxAge', () => {
    const verdict = verdictOf({ unreachable: 'the provider did not answer within 10 s.' })
    expect(verdict).toMatchObject({ verdict: 'acknowledged', expiresAt: '2025-07-01T06:00:00.000Z', measurements: null, tcbStatus: null })
  })

  test('unreachable: nothing could be fetched and no acknowledgement', () => {
    const verdict = verdictOf({ unreachable: 'the provider did not answer within 10 s.' }, recordOf(signer, false))
    expect(verdict.verdict).toBe('unreachable')
    expect(verdict.summary).toBe('No TEE evidence could be fetched now: the provider did not answer within 10 s.')
  })

  test("unknown record (offline, or the chain did not answer): provider and registrySigner skipped, judged on the evidence alone", () => {
    const verdict = verdictOf(allPass, { unknown: "Offline: the provider's 0G record is not part of the evidence." })
    expect(verdict.verdict).toBe('verified')
    expect(verdict.provider).toBeNull()
    expect(verdict.checks.slice(0, 2).map((c) => `${c.name}:${c.status}`)).toEqual(['provider:skip', 'registrySigner:skip'])
    expect(verdictOf({ unreachable: 'x.' }, { unknown: 'the chain did not answer.' }).verdict).toBe('unreachable')
  })

  test('a required check skipped (no app_compose served) is not verified', () => {
    const checks = allPass.checks.map((c) => (c.name === 'compose' ? { ...c, status: 'skip' as const } : c))
    const verdict = verdictOf(evidenceOf(checks), recordOf(null, false))
    expect(verdict.verdict).toBe('unreachable')
    expect(verdict.summary).toBe('The TEE evidence is incomplete: compose not established.')
  })
})

describe('checkTeeEvidence on a real Intel-signed quote', () => {
  const report = parseAttestationReport({ quote: Buffer.from(readQuote('tdx_quote')).toString('hex') })
  const collateral = readCollateral('tdx_quote')

  test("the quote and TCB pass; its report_data names no key of ours and it measured no compose hash: failed", () => {
    const evidence = checkTeeEvidence({ gpu: gpuNotChecked, report, collateral, now: pinnedClock, signingAddress: signer })
    expect(evidence.checks.map((c) => `${c.name}:${c.status}`)).toEqual(['quote:pass', 'tcb:pass', 'binding:fail', 'compose:fail', 'appraisal:skip', 'gpu:skip'])
    expect(evidence.tcbStatus).toBe('UpToDate')
    expect(evidence.measurements?.composeHash).toBeUndefined()
    expect(verdictOf(evidence).verdict).toBe('failed')
  })

  test('an MRTD allow-list that does not hold its MRTD fails the appraisal', () => {
    const evidence = checkTeeEvidence({ gpu: gpuNotChecked, report, collateral, now: pinnedClock, signingAddress: signer, allowList: { mrTds: [`0x${'00'.repeat(48)}`] } })
    expect(evidence.checks.find((c) => c.name === 'appraisal')).toMatchObject({ status: 'fail' })
    const listed = checkTeeEvidence({ gpu: gpuNotChecked, report, collateral, now: pinnedClock, signingAddress: signer, allowList: { mrTds: [evidence.measurements!.mrTd] } })
    expect(listed.checks.find((c) => c.name === 'appraisal')).toMatchObject({ status: 'pass' })
  })

  test('expired collateral fails the quote and leaves the rest unchecked', () => {
    const evidence = checkTeeEvidence({ gpu: gpuNotChecked, report, collateral, now: new Date('2025-08-01T00:00:00Z'), signingAddress: signer })
    expect(evidence.checks.map((c) => `${c.name}:${c.status}`)).toEqual(['quote:fail', 'tcb:skip', 'binding:skip', 'compose:skip', 'appraisal:skip', 'gpu:skip'])
    expect(evidence.checks[0]!.reason).toContain('is not valid at 2025-08-01T00:00:00.000Z')
  })

  test("the gpu check is the outcome it is given; a TeeTLS provider says the TEE attests the proxy", () => {
    const refused = { status: 'fail', reason: 'The GPU evidence is not attested.' } as const
    const evidence = checkTeeEvidence({ gpu: refused, report, collateral, now: pinnedClock, signingAddress: signer, targetSeparated: true })
    expect(evidence.checks.find((c) => c.name === 'gpu')).toEqual({ name: 'gpu', ...refused })
    expect(evidence.checks.find((c) => c.name === 'teeTls')?.reason).toContain('the TEE attests the proxy')
  })
})
