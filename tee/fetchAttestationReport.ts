import { randomBytes } from 'node:crypto'
import { type Hex, bytesToHex } from 'viem'
import { TeeFetchError, TeeReportMalformedError } from '../errors/tee.ts'
import { type AttestationReport, parseAttestationReport } from './parseAttestationReport.ts'
import { requestTeeEndpoint } from './requestTeeEndpoint.ts'

export type FetchAttestationReportParameters = {
  /** The provider's URL, as its 0G record gives it: anyone's text. */
  url: string
  /** The model the record names; dstack/NEAR servers serve a report per model. */
  model: string
  /** Default `defaultReportMaxBytes`. */
  maxBytes?: number | undefined
  /** For the whole exchange, body included, per request. Default 10 s. */
  timeoutMs?: number | undefined
  /** Reach non-public addresses: only the devnet, explicitly. */
  allowPrivate?: boolean | undefined
  /** The nonce to send; a fresh random one by default (a test may fix it). */
  nonce?: Hex | undefined
}

export type FetchAttestationReportReturnType = {
  report: AttestationReport
  /** The URL that served it. */
  reportUrl: string
  /** The nonce sent, or null when the server takes none (0G's /v1/quote). */
  nonce: Hex | null
  fetchedAt: Date
}

export type FetchAttestationReportErrorType = TeeFetchError

/**
 * 4 MiB. A report is a TDX quote (about 5 KB, twice that as hex), an event log and a compose file
 * (tens of KB, the dstack fixtures are 17 KB in all), and, from GPU servers, NVIDIA evidence: a
 * certificate chain and a signed report per GPU, some tens of KB each, so under 1 MB for eight GPUs.
 * 4 MiB leaves room for that while bounding what one check holds for a peer's sake.
 */
export const defaultReportMaxBytes = 4 * 1_024 * 1_024
const defaultTimeoutMs = 10_000

const base = (url: string) => url.replace(/\/+$/, '')

/**
 * Fetches the provider's attestation report, asking first with a fresh 32-byte nonce at
 * `/v1/attestation/report` (dstack/NEAR servers bind it into `report_data`, which the binding
 * check then requires) and, on a 404 there, at 0G's broker `/v1/quote` (no nonce taken). Every
 * failure is a `TeeFetchError`: the verdict shows it as `unreachable` with its message.
 */
export async function fetchAttestationReport({
  url,
  model,
  maxBytes = defaultReportMaxBytes,
  timeoutMs = defaultTimeoutMs,
  allowPrivate = false,
  nonce = bytesToHex(randomBytes(32)),
}: FetchAttestationReportParameters): Promise<FetchAttestationReportReturnType> {
  const query = new URLSearchParams({ model, signing_algo: 'ecdsa', nonce: nonce.slice(2) })
  const options = { what: 'attestation report' as const, maxBytes, timeoutMs, allowPrivate }
  const reportUrl = `${base(url)}/v1/attestation/report?${query}`
  const first = await requestTeeEndpoint({ ...options, url: reportUrl, passStatuses: [404] })
  if (first.body !== null) return { report: readReport(reportUrl, first.body), reportUrl, nonce, fetchedAt: new Date() }
  const quoteUrl = `${base(url)}/v1/quote`
  const second = await requestTeeEndpoint({ ...options, url: quoteUrl })
  return { report: readReport(quoteUrl, second.body as Buffer), reportUrl: quoteUrl, nonce: null, fetchedAt: new Date() }
}

function readReport(url: string, body: Buffer): AttestationReport {
  try {
    return parseAttestationReport(JSON.parse(body.toString('utf8')))
  } catch (cause) {
    const reason = cause instanceof TeeReportMalformedError ? cause.message : 'its body is not JSON'
    throw new TeeFetchError({ what: 'attestation report', url, reason, allowed: 'A JSON report carrying a TDX quote is expected.', cause })
  }
}
