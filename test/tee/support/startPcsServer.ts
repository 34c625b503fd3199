import type { Collateral } from '@phala/dcap-qvl'
import { type StartedServer, startHttpServer } from './startHttpServer.ts'

export type PcsServer = StartedServer & { requests: string[] }

const hexOf = (value: string | number[]) => (typeof value === 'string' ? value : Buffer.from(value).toString('hex'))

/**
 * Intel's PCS v4 API (as a PCCS serves it: the root CA CRL as hex at /sgx/certification/v4/rootcacrl)
 * on loopback, answering with a fixture's bytes as Intel issued them. Tests have no internet; this
 * lets our client read Intel's real bytes, in Intel's layout: issuer chains URL-encoded in headers,
 * the PCK CRL as DER, TCB info and QE identity as `{"tcbInfo":…,"signature":…}`.
 */
export async function startPcsServer(collateral: Collateral, { fmspc }: { fmspc: string }): Promise<PcsServer> {
  const requests: string[] = []
  const started = await startHttpServer((request, response) => {
    requests.push(request.url ?? '')
    const url = new URL(request.url ?? '/', 'http://x')
    const path = url.pathname
    if (path === '/sgx/certification/v4/pckcrl' && url.searchParams.get('encoding') === 'der') {
      response.writeHead(200, { 'SGX-PCK-CRL-Issuer-Chain': encodeURIComponent(collateral.pck_crl_issuer_chain) })
      return void response.end(Buffer.from(hexOf(collateral.pck_crl), 'hex'))
    }
    if (path === '/tdx/certification/v4/tcb' && url.searchParams.get('fmspc') === fmspc) {
      response.writeHead(200, { 'TCB-Info-Issuer-Chain': encodeURIComponent(collateral.tcb_info_issuer_chain), 'content-type': 'application/json' })
      return void response.end(`{"tcbInfo":${collateral.tcb_info},"signature":"${hexOf(collateral.tcb_info_signature)}"}`)
    }
    if (path === '/tdx/certification/v4/qe/identity') {
      response.writeHead(200, { 'SGX-Enclave-Identity-Issuer-Chain': encodeURIComponent(collateral.qe_identity_issuer_chain), 'content-type': 'application/json' })
      return void response.end(`{"enclaveIdentity":${collateral.qe_identity},"signature":"${hexOf(collateral.qe_identity_signature)}"}`)
    }
    if (path === '/sgx/certification/v4/rootcacrl') return void response.end(hexOf(collateral.root_ca_crl))
    response.writeHead(404).end()
  })
  return { ...started, requests }
}
