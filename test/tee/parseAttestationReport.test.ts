import { describe, expect, test } from 'vitest'
import { TeeReportMalformedError } from '../../errors/tee.ts'
import { parseAttestationReport } from '../../tee/parseAttestationReport.ts'
import { readJson, readQuote } from './support/fixtures.ts'

const dstack = readJson('dstack-quote-report.json')
const quoteHex = dstack.quote as string
const quoteBytes = Buffer.from(quoteHex, 'hex')
const events = JSON.parse(dstack.event_log as string) as unknown[]
const appCompose = '{"manifest_version":2,"name":"demo"}'
const signer = '0x70997970C51812dc3A010C7d01b50e20d17dc79C'

test("default: dstack's GetQuoteResponse (hex quote, event log as JSON text, vm_config)", () => {
  const report = parseAttestationReport(dstack)
  expect(Buffer.from(report.quote).equals(quoteBytes)).toBe(true)
  expect(report.eventLog).toHaveLength(events.length)
  expect(report.eventLog![0]).toMatchObject({ imr: 0, eventType: 2147483659, version: 1 })
  expect(report.vmConfig).toBe(dstack.vm_config)
  expect(report).toMatchObject({ appCompose: undefined, claimedSigningAddress: undefined, claimedNonce: undefined, nvidiaPayload: undefined })
})

describe('broker layouts', () => {
  test("NEAR private-ml-sdk: intel_quote, event_log as a list, info.tcb_info as text, request_nonce, nvidia_payload", () => {
    // Field names from vllm-proxy/src/app/quote/quote.py generate_attestation.
    const report = parseAttestationReport({
      signing_address: signer,
      signing_algo: 'ecdsa',
      request_nonce: 'AB'.repeat(32),
      intel_quote: quoteHex,
      nvidia_payload: '{"nonce":"ab","evidence_list":[],"arch":"HOPPER"}',
      event_log: events,
      info: { app_id: 'x', tcb_info: JSON.stringify({ app_compose: appCompose, rtmr3: 'ignored' }) },
    })
    expect(Buffer.from(report.quote).equals(quoteBytes)).toBe(true)
    expect(report.eventLog).toHaveLength(events.length)
    expect(report.appCompose).toBe(appCompose)
    expect(report.claimedNonce).toBe(`0x${'ab'.repeat(32)}`)
    expect(report.nvidiaPayload).toBe('{"nonce":"ab","evidence_list":[],"arch":"HOPPER"}')
    expect(report.claimedSigningAddress).toBe(signer)
  })

  test('0G model server: base64 quote, tcb_info as an object holding the event log, nvidia_payload as JSON', () => {
    const report = parseAttestationReport({
      quote: quoteBytes.toString('base64'),
      report_data: Buffer.from(signer).toString('base64'),
      tcb_info: { app_compose: appCompose, event_log: JSON.stringify(events) },
      nvidia_payload: { evidence_list: [] },
    })
    expect(Buffer.from(report.quote).equals(quoteBytes)).toBe(true)
    expect(report.eventLog).toHaveLength(events.length)
    expect(report.appCompose).toBe(appCompose)
    expect(report.nvidiaPayload).toBe('{"evidence_list":[]}')
  })

  test("0G provider broker's /v1/quote: quote and provider_signer only (0x hex)", () => {
    const report = parseAttestationReport({ quote: `0x${quoteHex}`, provider_signer: signer })
    expect(Buffer.from(report.quote).equals(quoteBytes)).toBe(true)
    expect(report.eventLog).toBeUndefined()
    expect(report.claimedSigningAddress).toBe(signer)
  })

  test('a binary quote file read as base64 round-trips', () => {
    const tdx = readQuote('tdx_quote')
    expect(Buffer.from(parseAttestationReport({ quote: Buffer.from(tdx).toString('base64') }).quote).equals(Buffer.from(tdx))).toBe(true)
  })
})

describe('refusals', () => {
  test.each([
    ['no quote', {}, 'quote'],
    ['a quote neither hex nor base64', { quote: 'not a quote!' }, 'quote'],
    ['tcb_info text that is not JSON', { quote: quoteHex, tcb_info: '{oops' }, 'tcb_info'],
    ['an event log that is not a list', { quote: quoteHex, event_log: '{}' }, 'event_log'],
    ['an event with a non-hex payload', { quote: quoteHex, event_log: [{ imr: 3, event_type: 134217729, event: 'x', event_payload: 'zz' }] }, 'event_log[0].event_payload'],
    ['an event of an unknown digest version', { quote: quoteHex, event_log: [{ imr: 3, event_type: 134217729, event: 'x', event_payload: '', version: 3 }] }, 'event_log[0].version'],
  ])('%s', (_, body, field) => {
    const run = () => parseAttestationReport(body)
    expect(run).toThrow(TeeReportMalformedError)
    expect(run).toThrow(`The attestation report's ${field} is unusable`)
  })

  test('a body that is not an object', () => {
    expect(() => parseAttestationReport([quoteHex])).toThrow(TeeReportMalformedError)
  })
})
