import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TeeFetchError } from '../../errors/tee.ts'
import { fetchCollateral } from '../../tee/fetchCollateral.ts'
import { readCollateralKey } from '../../tee/readCollateralKey.ts'
import { toDcapCollateral } from '../../tee/toDcapCollateral.ts'
import { verifyTdxQuote } from '../../tee/verifyTdxQuote.ts'
import { pinnedClock, readCollateral, readQuote } from './support/fixtures.ts'
import { type PcsServer, startPcsServer } from './support/startPcsServer.ts'
import { startHttpServer } from './support/startHttpServer.ts'

// Intel's real collateral for the real sample quote (fixtures/README.md), served by a local PCS:
// the test has no internet, and it checks our client against Intel's bytes and layout.
const quote = readQuote('tdx_quote')
const intel = readCollateral('tdx_quote')
const key = readCollateralKey(quote)
let pcs: PcsServer
beforeAll(async () => {
  pcs = await startPcsServer(intel, { fmspc: 'B0C06F000000' })
})
afterAll(() => pcs.close())

test("default: the collateral is Intel's, byte for byte, and verifies the real quote; it expires with the earliest nextUpdate", async () => {
  const fetched = await fetchCollateral({ ...key, pcsUrl: pcs.url })
  expect(key).toEqual({ fmspc: 'B0C06F000000', ca: 'platform', forSgx: false })
  expect(fetched.collateral).toEqual({
    ...intel,
    root_ca_crl: `0x${intel.root_ca_crl}`,
    pck_crl: `0x${intel.pck_crl}`,
    tcb_info_signature: `0x${intel.tcb_info_signature}`,
    qe_identity_signature: `0x${intel.qe_identity_signature}`,
  })
  // The Platform CA's PCK CRL is the first to lapse (fixtures/README.md).
  expect(fetched.expiresAt.toISOString()).toBe('2025-07-19T10:00:35.000Z')
  expect(verifyTdxQuote({ quote, collateral: toDcapCollateral(fetched.collateral), now: pinnedClock }).tcbStatus).toBe('UpToDate')
  expect(pcs.requests).toEqual([
    '/sgx/certification/v4/pckcrl?ca=platform&encoding=der',
    '/tdx/certification/v4/tcb?fmspc=B0C06F000000',
    '/tdx/certification/v4/qe/identity?update=standard',
    '/sgx/certification/v4/rootcacrl',
  ])
})

describe('refusals, each naming the piece', () => {
  test('a PCS that answers without the issuer chain header', async () => {
    const bare = await startHttpServer((_, response) => response.end('{}'))
    const error = await fetchCollateral({ ...key, pcsUrl: bare.url }).catch((e: unknown) => e)
    await bare.close()
    expect(error).toBeInstanceOf(TeeFetchError)
    expect((error as Error).message).toContain('The PCK CRL at "http://127.0.0.1:')
    expect((error as Error).message).toContain('it sent no SGX-PCK-CRL-Issuer-Chain header')
  })

  test('a redirect is not followed, and an unknown FMSPC is a 404', async () => {
    const moved = await startHttpServer((_, response) => response.writeHead(301, { location: 'https://elsewhere.example/' }).end())
    await expect(fetchCollateral({ ...key, pcsUrl: moved.url })).rejects.toThrow('it answered a redirect (301) to "https://elsewhere.example/"')
    await moved.close()
    await expect(fetchCollateral({ ...key, fmspc: '00DE0E7E0000', pcsUrl: pcs.url })).rejects.toThrow(/The TCB info at "http:\/\/127\.0\.0\.1:\d+\/tdx\/certification\/v4\/tcb\?fmspc=00DE0E7E0000" could not be had: it answered 404\. A 200 answer is expected\.$/)
  })

  test('a TCB info whose signed text is not JSON', async () => {
    const broken = await startPcsServer({ ...intel, tcb_info: '{"id":' }, { fmspc: 'B0C06F000000' })
    await expect(fetchCollateral({ ...key, pcsUrl: broken.url })).rejects.toThrow("its body is not Intel's signed JSON")
    await broken.close()
  })
})
