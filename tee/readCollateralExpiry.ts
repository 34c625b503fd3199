import type { TeeCollateral } from '../contract/tee.ts'
import { readCrl } from './readCrl.ts'

/**
 * When the collateral stops being usable: the earliest `nextUpdate` of the TCB info, the QE
 * identity and both CRLs. Throws when one of them has none to read (it is not Intel's collateral).
 */
export function readCollateralExpiry(collateral: TeeCollateral): Date {
  const crlNext = [collateral.root_ca_crl, collateral.pck_crl].map((hex) => readCrl(Buffer.from(hex.slice(2), 'hex')).nextUpdate)
  const jsonNext = [collateral.tcb_info, collateral.qe_identity].map((text) => new Date((JSON.parse(text) as { nextUpdate?: string }).nextUpdate ?? Number.NaN))
  const dates = [...crlNext, ...jsonNext]
  if (dates.some((date) => date === undefined || Number.isNaN(date.getTime()))) throw new RangeError('a piece of the collateral has no nextUpdate')
  return new Date(Math.min(...dates.map(Number)))
}
