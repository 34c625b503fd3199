import { X509Certificate } from 'node:crypto'
import { expect, test } from 'vitest'
import { readCollateralKey } from '../../tee/readCollateralKey.ts'
import { readCollateral, readQuote } from './support/fixtures.ts'

// The FMSPC oracle is the one Intel's PCS put in each quote's TCB info.
const fmspcOf = (name: string) => JSON.parse(readCollateral(name).tcb_info).fmspc as string

test("default: the TDX sample's PCK is issued by the Platform CA (dcap-qvl 0.3.9 unpatched said processor)", () => {
  expect(readCollateralKey(readQuote('tdx_quote'))).toEqual({ fmspc: fmspcOf('tdx_quote'), ca: 'platform', forSgx: false })
  expect(readCollateralKey(readQuote('tdx_quote_outdated'))).toEqual({ fmspc: fmspcOf('tdx_quote_outdated'), ca: 'platform', forSgx: false })
})

test("the SGX sample's PCK is issued by the Processor CA", () => {
  expect(readCollateralKey(readQuote('sgx_quote'))).toEqual({ fmspc: fmspcOf('sgx_quote'), ca: 'processor', forSgx: true })
})

test('the CA read is the one whose CRL Intel shipped in each sample collateral', () => {
  // dcap-qvl's Rust code fetched these collaterals; its CA choice is the oracle here.
  const expected = { platform: 'CN=Intel SGX PCK Platform CA', processor: 'CN=Intel SGX PCK Processor CA' }
  for (const name of ['tdx_quote', 'sgx_quote']) {
    const crlIssuer = new X509Certificate(readCollateral(name).pck_crl_issuer_chain.split('-----END CERTIFICATE-----')[0] + '-----END CERTIFICATE-----')
    expect(crlIssuer.subject.split('\n')[0]).toBe(expected[readCollateralKey(readQuote(name)).ca])
  }
})
