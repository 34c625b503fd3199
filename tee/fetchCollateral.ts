import dcap from '@phala/dcap-qvl'
import type { Hex } from 'viem'
import type { TeeCollateral } from '../contract/tee.ts'
import { TeeFetchError, type TeeFetchWhat } from '../errors/tee.ts'
import type { ReadCollateralKeyReturnType } from './readCollateralKey.ts'
import { readCollateralExpiry } from './readCollateralExpiry.ts'
import { readPemChain } from './readPemChain.ts'
import { readSignedJson } from './readSignedJson.ts'
import { requestTeeEndpoint } from './requestTeeEndpoint.ts'

export const intelPcsUrl = 'https://api.trustedservices.intel.com'

export type FetchCollateralParameters = ReadCollateralKeyReturnType & {
  /** Intel's PCS (default) or the operator's PCCS, which serves the same v4 API. */
  pcsUrl?: string | undefined
  /** Per request, body included. Default 10 s. */
  timeoutMs?: number | undefined
  /** Per request. Default `defaultCollateralMaxBytes`. */
  maxBytes?: number | undefined
}

export type FetchCollateralReturnType = {
  collateral: TeeCollateral
  /** The earliest nextUpdate of the TCB info, QE identity and both CRLs. */
  expiresAt: Date
  fetchedAt: Date
}

export type FetchCollateralErrorType = TeeFetchError

/**
 * 1 MiB per answer. Intel's largest is the Processor CA's PCK CRL, which lists every revoked
 * platform: about 16 KB in mid-2025 (the Platform CA's 2.6 KB), TCB info 5–9 KB, the rest under
 * 1 KB. 1 MiB is sixty times the largest while bounding what an operator's PCCS can make us hold.
 */
export const defaultCollateralMaxBytes = 1_024 * 1_024
const defaultTimeoutMs = 10_000

type Request = { what: TeeFetchWhat; url: string; maxBytes: number; timeoutMs: number; allowPrivate: boolean }

/**
 * Fetches the collateral of a platform (FMSPC) and PCK CA from Intel's PCS v4 API, or a PCCS
 * serving it, as dcap-qvl 0.3.9's `getCollateralForFmspc` does (the same paths and issuer-chain
 * headers), through our own hostile-peer fetch: no redirects, a byte cap and a deadline per
 * request. Intel's PCS is reached at public addresses only; an operator's PCCS is the operator's
 * setting, so the addresses it names are allowed. The root CA CRL comes from the PCCS
 * (`/sgx/certification/v4/rootcacrl`, hex) or, on Intel's PCS, from the root certificate's CRL
 * distribution point (DER). Throws a `TeeFetchError` naming the piece that could not be had.
 */
export async function fetchCollateral({ fmspc, ca, forSgx, pcsUrl = intelPcsUrl, timeoutMs = defaultTimeoutMs, maxBytes = defaultCollateralMaxBytes }: FetchCollateralParameters): Promise<FetchCollateralReturnType> {
  const baseUrl = pcsUrl.replace(/\/+$/, '').replace(/\/(sgx|tdx)\/certification\/v4$/, '')
  const isIntel = baseUrl === intelPcsUrl
  const tee = forSgx ? 'sgx' : 'tdx'
  const at = (what: TeeFetchWhat, path: string): Request => ({ what, url: `${baseUrl}/${path}`, maxBytes, timeoutMs, allowPrivate: !isIntel })
  // One after another: four small answers, and a PCCS is not to be hit in bursts by every check.
  const pckCrl = await fetchPiece(at('PCK CRL', `sgx/certification/v4/pckcrl?ca=${ca}&encoding=der`), ['SGX-PCK-CRL-Issuer-Chain'])
  const tcbInfo = await fetchPiece(at('TCB info', `${tee}/certification/v4/tcb?fmspc=${fmspc}`), ['TCB-Info-Issuer-Chain', 'SGX-TCB-Info-Issuer-Chain'])
  const qeIdentity = await fetchPiece(at('QE identity', `${tee}/certification/v4/qe/identity?update=standard`), ['SGX-Enclave-Identity-Issuer-Chain'])
  const rootCaCrl = isIntel
    ? await fetchRootCrlFromCertificate(qeIdentity.chain, { maxBytes, timeoutMs })
    : await fetchRootCrl(at('root CA CRL', 'sgx/certification/v4/rootcacrl'))
  const tcb = readSigned(tcbInfo.request, tcbInfo.body, 'tcbInfo')
  const qe = readSigned(qeIdentity.request, qeIdentity.body, 'enclaveIdentity')
  const collateral: TeeCollateral = {
    pck_crl_issuer_chain: pckCrl.chain,
    root_ca_crl: rootCaCrl,
    pck_crl: readCrlBytes(pckCrl.request, pckCrl.body),
    tcb_info_issuer_chain: tcbInfo.chain,
    tcb_info: tcb.json,
    tcb_info_signature: tcb.signature,
    qe_identity_issuer_chain: qeIdentity.chain,
    qe_identity: qe.json,
    qe_identity_signature: qe.signature,
  }
  let expiresAt: Date
  try {
    expiresAt = readCollateralExpiry(collateral)
  } catch (cause) {
    throw failure(pckCrl.request, `a piece has no readable nextUpdate (${(cause as Error).message})`, cause)
  }
  return { collateral, expiresAt, fetchedAt: new Date() }
}

const failure = (request: Request, reason: string, cause?: unknown) =>
  new TeeFetchError({ what: request.what, url: request.url, reason, allowed: "Intel's PCS v4 API (or a PCCS serving it) is expected.", cause })

async function fetchPiece(request: Request, chainHeaders: readonly string[]): Promise<{ request: Request; body: Buffer; chain: string }> {
  const answer = await requestTeeEndpoint(request)
  if (answer.body === null) throw failure(request, `it answered ${answer.status}`)
  if (chainHeaders.length === 0) return { request, body: answer.body, chain: '' }
  const header = chainHeaders.map((name) => answer.headers[name.toLowerCase()]).find((value) => typeof value === 'string')
  if (typeof header !== 'string') throw failure(request, `it sent no ${chainHeaders.join(' or ')} header`)
  let chain: string
  try {
    chain = decodeURIComponent(header)
  } catch (cause) {
    throw failure(request, `its ${chainHeaders[0]} header is not URL-encoded PEM`, cause)
  }
  if (readPemChain(chain).length === 0) throw failure(request, `its ${chainHeaders[0]} header holds no certificate`)
  return { request, body: answer.body, chain }
}

function readSigned(request: Request, body: Buffer, key: string): { json: string; signature: Hex } {
  try {
    return readSignedJson(body.toString('utf8'), key)
  } catch (cause) {
    throw failure(request, `its body is not Intel's signed JSON (${(cause as Error).message})`, cause)
  }
}

/**
 * A PCCS answers the root CA CRL as hex text, Intel's distribution point as DER. A DER CRL starts
 * with a SEQUENCE of long form length (0x30 0x81/0x82), never two ASCII hex digits.
 */
function readCrlBytes(request: Request, body: Buffer): Hex {
  const text = body.toString('latin1').trim()
  if (/^(?:[0-9a-fA-F]{2})+$/.test(text)) return `0x${text.toLowerCase()}`
  if (body[0] === 0x30) return `0x${body.toString('hex')}`
  throw failure(request, 'its body is neither a DER CRL nor hex')
}

async function fetchRootCrl(request: Request): Promise<Hex> {
  return readCrlBytes(request, (await fetchPiece(request, [])).body)
}

async function fetchRootCrlFromCertificate(qeChain: string, { maxBytes, timeoutMs }: { maxBytes: number; timeoutMs: number }): Promise<Hex> {
  const root = readPemChain(qeChain).at(-1)
  const url = root === undefined ? null : dcap.utils.extractCrlUrl(root.raw)
  const request: Request = { what: 'root CA CRL', url: url ?? "(the root certificate's CRL distribution point)", maxBytes, timeoutMs, allowPrivate: false }
  if (url === null) throw failure(request, 'the root certificate of the QE identity chain names no CRL distribution point')
  return fetchRootCrl(request)
}
