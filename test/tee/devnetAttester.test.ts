import { type Hex, getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { createAttester } from '../../devnet/tee/createAttester.ts'
import { createTeeRoot } from '../../devnet/tee/createTeeRoot.ts'
import { checkTeeEvidence } from '../../tee/checkTeeEvidence.ts'
import { parseAttestationReport } from '../../tee/parseAttestationReport.ts'
import { gpuNotChecked } from './support/fixtures.ts'

const now = new Date()
const root = createTeeRoot({ now })
const signingAddress = getAddress('0x70997970c51812dc3a010c7d01b50e20d7e60a8f')
const other = getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc')
const nonce: Hex = `0x${'a7'.repeat(32)}`
const attester = createAttester({ root, signingAddress })

const statusOf = (checks: { name: string; status: string }[]) => Object.fromEntries(checks.map(({ name, status }) => [name, status]))

test('default: the NEAR report passes quote, tcb, binding with the nonce sent, and compose (mr_config_id and the event log agree)', () => {
  const served = attester.nearReport(nonce)
  expect(served).toMatchObject({ signing_address: signingAddress, signing_algo: 'ecdsa', request_nonce: nonce.slice(2) })
  const report = parseAttestationReport(served)
  const { checks } = checkTeeEvidence({ gpu: gpuNotChecked, report, collateral: root.collateral, now, signingAddress, nonce, rootCa: root.rootCa })
  expect(statusOf(checks)).toMatchObject({ quote: 'pass', tcb: 'pass', binding: 'pass', compose: 'pass' })
  expect(checks.find(({ name }) => name === 'binding')?.reason).toContain('with the nonce we sent')
  expect(report.eventLog?.map(({ event }) => event)).toEqual(['app-id', 'compose-hash'])
})

describe('what a verifier must refuse', () => {
  test('another nonce than the one sent, another signing address', () => {
    const report = parseAttestationReport(attester.nearReport(nonce))
    const check = (parameters: { signingAddress: Hex; nonce: Hex }) =>
      statusOf(checkTeeEvidence({ gpu: gpuNotChecked, report, collateral: root.collateral, now, rootCa: root.rootCa, ...parameters }).checks)
    expect(check({ signingAddress, nonce: `0x${'00'.repeat(32)}` }).binding).toBe('fail')
    expect(check({ signingAddress: other, nonce }).binding).toBe('fail')
  })

  test("an app compose file other than the one measured", () => {
    const served = attester.nearReport(nonce) as { info: { tcb_info: string } }
    const tampered = { ...served, info: { ...served.info, tcb_info: served.info.tcb_info.replace('reference-seller:devnet', 'exfiltrate:latest') } }
    const { checks } = checkTeeEvidence({ gpu: gpuNotChecked, report: parseAttestationReport(tampered), collateral: root.collateral, now, signingAddress, nonce, rootCa: root.rootCa })
    expect(statusOf(checks).compose).toBe('fail')
  })
})

test("0G's /v1/quote: the address as ASCII, no nonce (replayable), compose from tcb_info", () => {
  const report = parseAttestationReport(attester.brokerQuote())
  expect(report.claimedSigningAddress).toBe(signingAddress)
  const { checks } = checkTeeEvidence({ gpu: gpuNotChecked, report, collateral: root.collateral, now, signingAddress, rootCa: root.rootCa })
  expect(statusOf(checks)).toMatchObject({ quote: 'pass', tcb: 'pass', binding: 'pass', compose: 'pass' })
  expect(checks.find(({ name }) => name === 'binding')?.reason).toContain('0g-ascii layout')
})
