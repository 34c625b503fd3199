import { createHash } from 'node:crypto'
import { type Hex, bytesToHex } from 'viem'
import { describe, expect, test } from 'vitest'
import { TeeComposeHashError, TeeEventLogMismatchError } from '../../errors/tee.ts'
import { parseAttestationReport } from '../../tee/parseAttestationReport.ts'
import { parseTdxQuote } from '../../tee/parseTdxQuote.ts'
import { readComposeHash } from '../../tee/readComposeHash.ts'
import { type TdxEvent, replayEventLog } from '../../tee/replayEventLog.ts'
import { readJson, slice, tdOffsets } from './support/fixtures.ts'

const sha256 = (text: string): Hex => `0x${createHash('sha256').update(text).digest('hex')}`
const zero48: Hex = `0x${'00'.repeat(48)}`

function fixture(name: string) {
  const report = parseAttestationReport(readJson(name))
  return { report, measurements: parseTdxQuote(report.quote).measurements }
}

test('default: a dstack quote with mr_config_id zero reads its compose hash from RTMR3 replayed', () => {
  const { report, measurements } = fixture('dstack-quote-report.json')
  expect(measurements.mrConfigId).toBe(zero48)
  const result = readComposeHash({ measurements, eventLog: report.eventLog })
  // The oracle: the compose-hash event's payload as the fixture's JSON spells it.
  const event = (JSON.parse(readJson('dstack-quote-report.json').event_log as string) as { event: string; event_payload: string }[]).find((e) => e.event === 'compose-hash')!
  expect(result).toEqual({ composeHash: `0x${event.event_payload}`, source: 'event_log', appComposeMatches: false })
})

describe('replayEventLog', () => {
  test("the dstack fixture's log replays to all four RTMRs of its quote", () => {
    const { report } = fixture('dstack-quote-report.json')
    const quote = report.quote
    expect(replayEventLog(report.eventLog!).rtmrs).toEqual([0, 1, 2, 3].map((i) => slice(quote, tdOffsets.rtmr3 - 48 * (3 - i), 48)))
  })

  test('a log stripped of runtime digests (dstack lite) still replays: they are recomputed', () => {
    const { report, measurements } = fixture('dstack-tdx-lite-getquote.json')
    expect(report.eventLog!.filter((e) => e.imr === 3).every((e) => e.digest === '')).toBe(true)
    expect(replayEventLog(report.eventLog!).rtmrs[3]).toBe(measurements.rtmr3)
  })

  test("a runtime event whose payload was changed no longer matches its digest", () => {
    const { report } = fixture('dstack-quote-report.json')
    const log = report.eventLog!.map((e) => (e.event === 'compose-hash' ? { ...e, payload: `0x${'11'.repeat(32)}` as Hex } : e))
    expect(() => replayEventLog(log)).toThrow(TeeEventLogMismatchError)
  })

  test('a V2 runtime event hashes the canonical JSON {name, payload, type}', () => {
    const event: TdxEvent = { imr: 3, eventType: 0x08000001, digest: '', event: 'compose-hash', payload: '0xab', version: 2 }
    const digest = createHash('sha384').update('{"name":"compose-hash","payload":"ab","type":134217729}').digest()
    const expected = createHash('sha384').update(Buffer.concat([Buffer.alloc(48), digest])).digest()
    expect(replayEventLog([event]).rtmrs[3]).toBe(bytesToHex(expected))
  })
})

describe('mr_config_id', () => {
  test('version 1 gives the compose hash, and agrees with the event log (dstack 0.6.0 lite)', () => {
    const { report, measurements } = fixture('dstack-tdx-lite-getquote.json')
    const expected = `0x${measurements.mrConfigId.slice(4, 68)}`
    expect(readComposeHash({ measurements })).toEqual({ composeHash: expected, source: 'mr_config_id', appComposeMatches: false })
    expect(readComposeHash({ measurements, eventLog: report.eventLog }).composeHash).toBe(expected)
  })

  test('neither version 1 nor an event log: no compose hash', () => {
    const { measurements } = fixture('dstack-quote-report.json')
    expect(() => readComposeHash({ measurements })).toThrowErrorMatchingInlineSnapshot(
      `[TeeComposeHashError: The application's compose hash could not be established: mr_config_id 0x000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 is not version 1 and no event log was given.]`,
    )
  })
})

describe('appCompose', () => {
  const appCompose = '{"manifest_version":2,"name":"demo","runner":"docker-compose"}'
  const measurements = { mrConfigId: `0x01${sha256(appCompose).slice(2)}${'00'.repeat(15)}` as Hex, rtmr0: zero48, rtmr1: zero48, rtmr2: zero48, rtmr3: zero48 }

  test('its sha256 is the measured compose hash', () => {
    expect(readComposeHash({ measurements, appCompose })).toEqual({ composeHash: sha256(appCompose), source: 'mr_config_id', appComposeMatches: true })
  })

  test('another file (one byte more) is refused', () => {
    expect(() => readComposeHash({ measurements, appCompose: `${appCompose} ` })).toThrow(TeeComposeHashError)
  })

  test("against the dstack fixture's measured hash, a file that is not it is refused", () => {
    const { report, measurements: real } = fixture('dstack-quote-report.json')
    expect(() => readComposeHash({ measurements: real, eventLog: report.eventLog, appCompose })).toThrow(/sha256\(app_compose\) is 0x[0-9a-f]{64} but the TD measured 0x3763bc34/)
  })
})
