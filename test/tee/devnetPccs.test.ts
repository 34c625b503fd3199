import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTeeRoot } from '../../devnet/tee/createTeeRoot.ts'
import { makeTdxQuote } from '../../devnet/tee/makeTdxQuote.ts'
import { type ServePccsReturnType, servePccs } from '../../devnet/tee/servePccs.ts'
import { verifyTdxQuote } from '../../tee/verifyTdxQuote.ts'
import { getCollateralForFmspc } from '../devnet/support/getCollateralForFmspc.ts'

const now = new Date()
const root = createTeeRoot({ now })
const fmspc = Buffer.from(root.platform.fmspc).toString('hex').toUpperCase()
let pccs: ServePccsReturnType

beforeAll(async () => {
  pccs = await servePccs(root, { port: 0 })
})
afterAll(() => pccs.close())

test("default: dcap-qvl's own client fetches the collateral, and a devnet quote verifies with it against the devnet root", async () => {
  const collateral = await getCollateralForFmspc(pccs.url, fmspc, 'platform', false)
  const quote = makeTdxQuote(root, { reportData: new Uint8Array(64) })
  expect(verifyTdxQuote({ quote, collateral, now, rootCa: root.rootCa })).toMatchObject({ teeType: 'TDX', tcbStatus: 'UpToDate' })
  // As signed: the same text, so the signatures hold.
  expect(collateral.tcb_info).toBe(root.collateral.tcb_info)
  expect(collateral.qe_identity).toBe(root.collateral.qe_identity)
  expect(Buffer.from(collateral.root_ca_crl as unknown as number[]).toString('hex')).toBe(root.collateral.root_ca_crl)
})

describe('answers as Intel PCS v4 (PCCS) does', () => {
  test('pckcrl: DER (or PEM) with the URL-encoded issuer chain', async () => {
    const der = await fetch(`${pccs.url}/sgx/certification/v4/pckcrl?ca=platform&encoding=der`)
    expect(der.status).toBe(200)
    expect(Buffer.from(await der.arrayBuffer()).toString('hex')).toBe(root.collateral.pck_crl)
    expect(decodeURIComponent(der.headers.get('SGX-PCK-CRL-Issuer-Chain')!)).toBe(root.collateral.pck_crl_issuer_chain)
    const pem = await fetch(`${pccs.url}/sgx/certification/v4/pckcrl?ca=platform`)
    expect(await pem.text()).toMatch(/^-----BEGIN X509 CRL-----\n/)
  })

  test('tcb and qe/identity: the signed JSON and its signature, with their issuer chains', async () => {
    const tcb = await fetch(`${pccs.url}/tdx/certification/v4/tcb?fmspc=${fmspc.toLowerCase()}`)
    expect(decodeURIComponent(tcb.headers.get('TCB-Info-Issuer-Chain')!)).toBe(root.collateral.tcb_info_issuer_chain)
    expect(await tcb.text()).toBe(`{"tcbInfo":${root.collateral.tcb_info},"signature":"${root.collateral.tcb_info_signature}"}`)
    const qe = await fetch(`${pccs.url}/tdx/certification/v4/qe/identity?update=standard`)
    expect(decodeURIComponent(qe.headers.get('SGX-Enclave-Identity-Issuer-Chain')!)).toBe(root.collateral.qe_identity_issuer_chain)
    expect(JSON.parse(await qe.text())).toEqual({ enclaveIdentity: JSON.parse(root.collateral.qe_identity), signature: root.collateral.qe_identity_signature })
  })

  test('rootcacrl: hex text', async () => {
    expect(await (await fetch(`${pccs.url}/sgx/certification/v4/rootcacrl`)).text()).toBe(root.collateral.root_ca_crl)
  })
})

describe('refusals', () => {
  test.each([
    ['/tdx/certification/v4/tcb?fmspc=00606A000000', 404, 'The devnet has no TCB info for FMSPC 00606A000000; its one platform\'s FMSPC is 00DE0E7E0000.'],
    ['/tdx/certification/v4/tcb?fmspc=xyz', 400, 'Query parameter fmspc must be 6 bytes of hex (12 digits), got "xyz".'],
    ['/sgx/certification/v4/pckcrl?ca=processor&encoding=der', 404, 'The devnet has no PCK Processor CA: its PCK certificates are issued by its PCK Platform CA (ca=platform).'],
    ['/sgx/certification/v4/pckcrl?ca=other', 400, 'Query parameter ca must be "platform" or "processor", got "other".'],
    ['/sgx/certification/v4/pckcert', 404, "Path \"/sgx/certification/v4/pckcert\" is not served: the devnet's PCCS answers /sgx/certification/v4/pckcrl, /sgx/certification/v4/rootcacrl, /tdx/certification/v4/tcb and /tdx/certification/v4/qe/identity."],
  ])('%s: %i', async (path, status, message) => {
    const response = await fetch(`${pccs.url}${path}`)
    expect(response.status).toBe(status)
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(message)
  })

  test("an unknown FMSPC fails dcap-qvl's client", async () => {
    await expect(getCollateralForFmspc(pccs.url, '00606A000000', 'platform', false)).rejects.toThrow('Failed to fetch TCB info: 404')
  })
})
