import type { Collateral } from '@phala/dcap-qvl'
import type { TeeCollateral } from '../../../contract/tee.ts'

/** The evidence's collateral (byte fields as 0x-prefixed hex) as dcap-qvl takes it (bare hex). */
export function toDcapCollateral(collateral: TeeCollateral): Collateral {
  const bare = (hex: string) => hex.replace(/^0x/, '')
  return {
    ...collateral,
    root_ca_crl: bare(collateral.root_ca_crl),
    pck_crl: bare(collateral.pck_crl),
    tcb_info_signature: bare(collateral.tcb_info_signature),
    qe_identity_signature: bare(collateral.qe_identity_signature),
  }
}
