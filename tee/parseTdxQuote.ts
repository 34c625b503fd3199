import dcap from '@phala/dcap-qvl'
import { type Hex, bytesToHex } from 'viem'
import { TeeNotTdxError, TeeQuoteMalformedError } from '../errors/tee.ts'

/** The registers a TDX quote reports, each 0x-prefixed lowercase hex as they appear in the quote. */
export type TdxMeasurements = {
  mrTd: Hex
  rtmr0: Hex
  rtmr1: Hex
  rtmr2: Hex
  rtmr3: Hex
  mrConfigId: Hex
  mrOwner: Hex
  mrOwnerConfig: Hex
  mrSeam: Hex
}

export type ParseTdxQuoteReturnType = {
  teeType: 'TDX'
  version: 4 | 5
  measurements: TdxMeasurements
  /** The 64 bytes the guest asked the TDX module to sign into the report. */
  reportData: Uint8Array
  tdAttributes: Hex
  /** TUD.DEBUG (bit 0 of the first byte of TD attributes). */
  debug: boolean
}

export type ParseTdxQuoteErrorType = TeeQuoteMalformedError | TeeNotTdxError

const teeTypeNames: Record<number, string> = { 0x00: 'SGX', 0x81: 'TDX' }

/**
 * Reads a TDX quote's header and TD report without verifying anything: the verifier calls it to
 * refuse what no signature can make acceptable (an SGX quote, a debug TD) with that reason.
 */
export function parseTdxQuote(quote: Uint8Array): ParseTdxQuoteReturnType {
  let parsed: dcap.Quote
  try {
    parsed = dcap.Quote.parse(quote)
  } catch (cause) {
    throw new TeeQuoteMalformedError({ reason: (cause as Error).message, cause })
  }
  const { teeType, version } = parsed.header
  const td = parsed.report.asTd10()
  if (teeTypeNames[teeType] !== 'TDX' || (version !== 4 && version !== 5) || td === null) {
    throw new TeeNotTdxError({ teeType: teeTypeNames[teeType] ?? `unknown (0x${teeType.toString(16)})`, version })
  }
  return {
    teeType: 'TDX',
    version,
    measurements: {
      mrTd: bytesToHex(td.mrTd),
      rtmr0: bytesToHex(td.rtMr0),
      rtmr1: bytesToHex(td.rtMr1),
      rtmr2: bytesToHex(td.rtMr2),
      rtmr3: bytesToHex(td.rtMr3),
      mrConfigId: bytesToHex(td.mrConfigId),
      mrOwner: bytesToHex(td.mrOwner),
      mrOwnerConfig: bytesToHex(td.mrOwnerConfig),
      mrSeam: bytesToHex(td.mrSeam),
    },
    reportData: Uint8Array.from(td.reportData),
    tdAttributes: bytesToHex(td.tdAttributes),
    debug: ((td.tdAttributes[0] ?? 0) & 0x01) !== 0,
  }
}
