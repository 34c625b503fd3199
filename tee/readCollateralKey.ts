import dcap from '@phala/dcap-qvl'
import { TeeQuoteMalformedError } from '../errors/tee.ts'

/** What Intel's PCS indexes a quote's collateral by: fetch and cache it under this key. */
export type ReadCollateralKeyReturnType = {
  /** Family-model-stepping-platform-customSKU of the platform, as PCS spells it (12 hex, upper). */
  fmspc: string
  /** The PCK CA that issued the quote's PCK certificate: whose CRL the collateral must carry. */
  ca: 'processor' | 'platform'
  /** TDX quotes take `/tdx/certification/v4/tcb`; SGX ones `/sgx/…`. */
  forSgx: boolean
}

/** Reads the collateral key from the quote's PCK certificate (relies on `patches/` for `ca`). */
export function readCollateralKey(quote: Uint8Array): ReadCollateralKeyReturnType {
  try {
    const parsed = dcap.Quote.parse(quote)
    const ca = dcap.intel.getCa(parsed)
    return {
      fmspc: Buffer.from(dcap.intel.getFmspc(parsed)).toString('hex').toUpperCase(),
      ca: ca === 'platform' ? 'platform' : 'processor',
      forSgx: parsed.header.isSgx(),
    }
  } catch (cause) {
    throw new TeeQuoteMalformedError({ reason: `its PCK certificate names no FMSPC (${(cause as Error).message})`, cause })
  }
}
