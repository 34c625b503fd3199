import { type Address, type Hex, bytesToHex, getAddress, hexToBytes, isAddress } from 'viem'
import { TeeReportDataMismatchError } from '../errors/tee.ts'

/**
 * How a broker writes its signing address into the quote's 64 `report_data` bytes:
 * - `0g-ascii`: the address as 0x-prefixed ASCII text (42 bytes), zero-padded. 0G's provider
 *   broker asks dstack for a quote with `report_data: s.Address.Hex()` (0g-serving-broker
 *   `api/common/tee/tee.go`, `SyncQuote`/`getQuote`), and 0G's SDK reads it back as UTF-8 with
 *   the NULs removed (`@0gfoundation/0g-compute-ts-sdk` 0.9.0 `inference/broker/verifier.js`,
 *   `extractTeeSignerAddress`).
 * - `0g-versioned`: the 20 address bytes at bytes 32–52, after a 32-byte versioned header. This
 *   layout is as issue 39 describes it; no source of it was in the snapshots read (0g-serving-broker
 *   main of 2025-10-16, the SDK 0.9.0), so only the address bytes are checked.
 * - `address-nonce`: the 20 address bytes, 12 zero bytes, then the caller's 32-byte nonce
 *   (nearai/private-ml-sdk `vllm-proxy/src/app/quote/quote.py`, `_build_report_data`, and its
 *   verifier `verifiers/attestation_verifier.py`, `check_report_data`; dstack-served models).
 */
export type ReportDataLayout = '0g-ascii' | '0g-versioned' | 'address-nonce'

export const reportDataLayouts: readonly ReportDataLayout[] = ['0g-ascii', '0g-versioned', 'address-nonce']

export type ReadReportDataBindingParameters = {
  signingAddress: Address
  /** The fresh nonce sent with the request: when given, only a layout that carries it passes. */
  nonce?: Hex | undefined
}

export type ReadReportDataBindingReturnType = {
  layout: ReportDataLayout
  /** Whether `report_data` carries the nonce we sent (a replayed quote cannot). */
  nonceBound: boolean
}

export type ReadReportDataBindingErrorType = TeeReportDataMismatchError

const zero = (bytes: Uint8Array) => bytes.every((b) => b === 0)
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i])

function readAsciiAddress(reportData: Uint8Array): string | undefined {
  const end = reportData.indexOf(0)
  const text = new TextDecoder('utf-8', { fatal: false }).decode(reportData.subarray(0, end === -1 ? 64 : end))
  return end !== -1 && zero(reportData.subarray(end)) && isAddress(text, { strict: false }) ? text : undefined
}

/**
 * Which layout of `reportData` (read from the verified quote, never from a JSON field) names
 * `signingAddress`. Throws when none does; with a nonce, when the nonce is not the one sent.
 */
export function readReportDataBinding(
  reportData: Uint8Array,
  { signingAddress, nonce }: ReadReportDataBindingParameters,
): ReadReportDataBindingReturnType {
  const address = hexToBytes(getAddress(signingAddress))
  const mismatch = () =>
    new TeeReportDataMismatchError({
      signingAddress,
      reportData: bytesToHex(reportData),
      layouts: nonce === undefined ? reportDataLayouts : ['address-nonce with the nonce sent'],
    })
  if (reportData.length !== 64) throw mismatch()
  const head = reportData.subarray(0, 20)
  if (equal(head, address) && zero(reportData.subarray(20, 32))) {
    if (nonce === undefined) return { layout: 'address-nonce', nonceBound: false }
    if (equal(reportData.subarray(32), hexToBytes(nonce))) return { layout: 'address-nonce', nonceBound: true }
  }
  if (nonce !== undefined) throw mismatch()
  const ascii = readAsciiAddress(reportData)
  if (ascii !== undefined && ascii.toLowerCase() === signingAddress.toLowerCase()) return { layout: '0g-ascii', nonceBound: false }
  if (equal(reportData.subarray(32, 52), address)) return { layout: '0g-versioned', nonceBound: false }
  throw mismatch()
}
