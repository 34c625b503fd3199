import { createHash } from 'node:crypto'
import dcap from '@phala/dcap-qvl'
import { type Address, type Hex, getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { createTeeRoot } from '../../devnet/tee/createTeeRoot.ts'
import { makeTdxQuote } from '../../devnet/tee/makeTdxQuote.ts'
import { TeeCollateralExpiredError, TeeCollateralInvalidError, TeeDebugTdError, TeeRevokedError, TeeTcbNotAcceptedError } from '../../errors/tee.ts'
import { checkTeeEvidence } from '../../tee/checkTeeEvidence.ts'
import { parseAttestationReport } from '../../tee/parseAttestationReport.ts'
import { teeVerdict } from '../../tee/teeVerdict.ts'
import { verifyTdxQuote } from '../../tee/verifyTdxQuote.ts'
import { refusal } from './support/refusal.ts'
import { gpuNotChecked } from './support/fixtures.ts'

const now = new Date('2026-11-27T00:00:00Z')
const signer: Address = getAddress('0x70997970c51812dc3a010c7d01b50e20d7e60a8f')
const nonce: Hex = `0x${'5a'.repeat(32)}`
const appCompose = '{"manifest_version":2,"name":"reference-seller","runner":"docker-compose"}'
const composeHash = createHash('sha256').update(appCompose).digest('hex')
/** dstack/NEAR layout: address ‖ 12 zero bytes ‖ nonce. */
const bound = Uint8Array.from(Buffer.concat([Buffer.from(signer.slice(2), 'hex'), Buffer.alloc(12), Buffer.from(nonce.slice(2), 'hex')]))
const root = createTeeRoot({ now })

test('default: a quote made with the devnet root verifies against that root, and dcap-qvl agrees', () => {
  const quote = makeTdxQuote(root, { reportData: bound })
  expect(dcap.QuoteVerifier.newWithRootCa(Buffer.from(root.rootCa)).verify(quote, root.collateral, now.getTime() / 1000).status).toBe('UpToDate')
  expect(verifyTdxQuote({ quote, collateral: root.collateral, now, rootCa: root.rootCa })).toMatchObject({ teeType: 'TDX', version: 4, tcbStatus: 'UpToDate' })
})

test("the devnet root's quote is refused where Intel's root is trusted", () => {
  const quote = makeTdxQuote(root, { reportData: bound })
  const error = refusal(() => verifyTdxQuote({ quote, collateral: root.collateral, now }))
  expect(error).toBeInstanceOf(TeeCollateralInvalidError)
  expect(error.message).toContain('the root CA CRL is not signed by CN=Intel SGX Root CA')
})

describe('refusals of properly signed quotes', () => {
  test('a debug TD, signed: refused by us, and by dcap-qvl on its own', () => {
    const quote = makeTdxQuote(root, { reportData: bound, tdAttributes: '0x0100001000000000' })
    expect(() => dcap.QuoteVerifier.newWithRootCa(Buffer.from(root.rootCa)).verify(quote, root.collateral, now.getTime() / 1000)).toThrow('Debug mode is enabled')
    expect(refusal(() => verifyTdxQuote({ quote, collateral: root.collateral, now, rootCa: root.rootCa }))).toBeInstanceOf(TeeDebugTdError)
  })

  test("a PCK certificate on its CA's CRL is revoked", () => {
    const revoked = createTeeRoot({ now, revoke: 'pck' })
    const error = refusal(() => verifyTdxQuote({ quote: makeTdxQuote(revoked, { reportData: bound }), collateral: revoked.collateral, now, rootCa: revoked.rootCa }))
    expect(error).toBeInstanceOf(TeeRevokedError)
  })

  test('an OutOfDate platform is refused, unless each of its advisories is allowed', () => {
    const old = createTeeRoot({ now, tcbStatus: 'OutOfDate', advisoryIds: ['INTEL-SA-01036'] })
    const quote = makeTdxQuote(old, { reportData: bound })
    const parameters = { quote, collateral: old.collateral, now, rootCa: old.rootCa }
    expect(refusal(() => verifyTdxQuote(parameters))).toBeInstanceOf(TeeTcbNotAcceptedError)
    const allowed = verifyTdxQuote({ ...parameters, policy: { acceptedStatuses: ['UpToDate'], allowedAdvisoryIds: ['INTEL-SA-01036'] } })
    expect(allowed).toMatchObject({ tcbStatus: 'OutOfDate', advisoryIds: ['INTEL-SA-01036'], tcbAcceptedBy: 'advisories' })
  })

  test('past the collateral nextUpdate the quote is refused as expired', () => {
    const quote = makeTdxQuote(root, { reportData: bound })
    const later = new Date(now.getTime() + 31 * 86_400_000)
    expect(refusal(() => verifyTdxQuote({ quote, collateral: root.collateral, now: later, rootCa: root.rootCa }))).toBeInstanceOf(TeeCollateralExpiredError)
  })
})

describe('the whole chain: a report as NEAR serves it, checked and judged', () => {
  const served = (reportData: Uint8Array) => ({
    signing_address: signer,
    signing_algo: 'ecdsa',
    request_nonce: nonce.slice(2),
    intel_quote: Buffer.from(makeTdxQuote(root, { reportData, mrConfigId: `0x01${composeHash}${'00'.repeat(15)}` })).toString('hex'),
    event_log: [],
    info: { tcb_info: JSON.stringify({ app_compose: appCompose }) },
  })
  const judge = (reportData: Uint8Array) => {
    const evidence = checkTeeEvidence({ gpu: gpuNotChecked, report: parseAttestationReport(served(reportData)), collateral: root.collateral, now, signingAddress: signer, nonce, rootCa: root.rootCa })
    return teeVerdict({ serviceId: '1', signingAddress: signer, record: { url: 'https://provider.example', model: 'm', verifiability: 'TeeML', targetSeparated: false, teeSignerAddress: signer, teeSignerAcknowledged: false }, evidence, checkedAt: now, maxAgeMs: 3_600_000 })
  }

  test('the key, the nonce and the compose file all match: verified, measured not appraised', () => {
    const verdict = judge(bound)
    expect(verdict.verdict).toBe('verified')
    expect(verdict.checks.map((c) => `${c.name}:${c.status}`)).toEqual(['provider:pass', 'registrySigner:pass', 'quote:pass', 'tcb:pass', 'binding:pass', 'compose:pass', 'appraisal:skip', 'gpu:skip'])
    expect(verdict.measurements?.composeHash).toBe(`0x${composeHash}`)
    expect(verdict.checks.find((c) => c.name === 'binding')?.reason).toContain('with the nonce we sent')
  })

  test('a quote naming another key fails the binding: failed', () => {
    const other = Uint8Array.from(bound)
    other[0]! ^= 0xff
    const verdict = judge(other)
    expect(verdict.verdict).toBe('failed')
    expect(verdict.checks.find((c) => c.name === 'binding')?.status).toBe('fail')
  })
})
