import { type Address, type Hex, isAddress, isHex } from 'viem'
import { TeeReportMalformedError } from '../errors/tee.ts'
import type { TdxEvent } from './replayEventLog.ts'

/**
 * An attestation report as the brokers serve it, its fields normalised. Only `quote` is evidence;
 * the rest is what the quote is checked against (an event log, the app compose file) or what the
 * report claims beside it (the signing address, the nonce), which is never trusted on its own.
 */
export type AttestationReport = {
  quote: Uint8Array
  eventLog: TdxEvent[] | undefined
  appCompose: string | undefined
  claimedSigningAddress: Address | undefined
  claimedNonce: Hex | undefined
  /** NVIDIA GPU evidence, kept as served (a JSON string) for an operator who opts in. */
  nvidiaPayload: string | undefined
  vmConfig: string | undefined
}

export type ParseAttestationReportErrorType = TeeReportMalformedError

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

function decodeBytes(field: string, text: string): Uint8Array {
  const hex = text.startsWith('0x') ? text.slice(2) : text
  if (/^[0-9a-fA-F]*$/.test(hex) && hex.length % 2 === 0) return Uint8Array.from(Buffer.from(hex, 'hex'))
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return Uint8Array.from(Buffer.from(text, 'base64'))
  throw new TeeReportMalformedError({ field, reason: 'it is neither hex nor base64' })
}

/** `tcb_info`, `event_log` and `nvidia_payload` come as JSON text from some brokers, as JSON from others. */
function readNested(field: string, value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    throw new TeeReportMalformedError({ field, reason: 'it is a string but not JSON' })
  }
}

function readVersion(field: string, version: unknown): 1 | 2 {
  if (version === undefined || version === 1) return 1
  if (version === 2) return 2
  throw new TeeReportMalformedError({ field, reason: `version ${String(version)} is not 1 or 2` })
}

function readEvent(entry: unknown, index: number): TdxEvent {
  const field = `event_log[${index}]`
  if (!isObject(entry)) throw new TeeReportMalformedError({ field, reason: 'it is not an object' })
  const { imr, event_type, digest = '', event = '', event_payload = '', version } = entry
  const hex = (name: string, value: unknown): Hex => {
    const text = typeof value === 'string' ? (value.startsWith('0x') ? value : `0x${value}`) : ''
    if (!isHex(text, { strict: true }) || text.length % 2 !== 0) throw new TeeReportMalformedError({ field: `${field}.${name}`, reason: 'it is not hex' })
    return text.toLowerCase() as Hex
  }
  if (typeof imr !== 'number' || typeof event_type !== 'number' || typeof event !== 'string') {
    throw new TeeReportMalformedError({ field, reason: 'imr and event_type must be numbers and event a string' })
  }
  return {
    imr,
    eventType: event_type,
    digest: digest === '' ? '' : hex('digest', digest),
    event,
    payload: hex('event_payload', event_payload),
    version: readVersion(`${field}.version`, version),
  }
}

function readEventLog(value: unknown): TdxEvent[] | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const log = readNested('event_log', value)
  if (!Array.isArray(log)) throw new TeeReportMalformedError({ field: 'event_log', reason: 'it is not a list of events' })
  return log.map(readEvent)
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === 'string' && v !== '')
}

/**
 * Reads the report layouts the brokers produce: 0G's provider broker (`quote`, `provider_signer`),
 * dstack's `GetQuoteResponse` (`quote`, `event_log` as JSON text, `report_data`, `vm_config`),
 * 0G/dstack model servers (`tcb_info` as text or object, holding `app_compose` and `event_log`;
 * `signing_address`, `nvidia_payload`), and NEAR's private-ml-sdk (`intel_quote`, `event_log` as a
 * list, `info.tcb_info`, `request_nonce`). A quote is hex (with or without 0x) or base64.
 */
export function parseAttestationReport(json: unknown): AttestationReport {
  if (!isObject(json)) throw new TeeReportMalformedError({ field: 'body', reason: 'it is not a JSON object' })
  const quoteText = firstString(json.quote, json.intel_quote)
  if (quoteText === undefined) throw new TeeReportMalformedError({ field: 'quote', reason: 'neither quote nor intel_quote is a non-empty string' })
  const info = isObject(json.info) ? json.info : {}
  const tcbInfoValue = readNested('tcb_info', json.tcb_info ?? info.tcb_info)
  const tcbInfo = isObject(tcbInfoValue) ? tcbInfoValue : {}
  const signer = firstString(json.signing_address, json.provider_signer)
  const nonce = firstString(json.request_nonce)
  const nvidia = json.nvidia_payload
  return {
    quote: decodeBytes('quote', quoteText),
    eventLog: readEventLog(json.event_log ?? tcbInfo.event_log),
    appCompose: firstString(json.app_compose, tcbInfo.app_compose, info.app_compose),
    claimedSigningAddress: signer !== undefined && isAddress(signer, { strict: false }) ? signer : undefined,
    claimedNonce: nonce === undefined ? undefined : ((nonce.startsWith('0x') ? nonce : `0x${nonce}`).toLowerCase() as Hex),
    nvidiaPayload: nvidia === undefined || nvidia === null || nvidia === '' ? undefined : typeof nvidia === 'string' ? nvidia : JSON.stringify(nvidia),
    vmConfig: firstString(json.vm_config, isObject(json.vm_config) ? JSON.stringify(json.vm_config) : undefined),
  }
}
