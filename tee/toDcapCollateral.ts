import type { Collateral } from '@phala/dcap-qvl'
import type { TeeCollateral } from '../contract/tee.ts'

/** dcap-qvl reads byte fields as hex without 0x; the contract writes them with it. */
export function toDcapCollateral(collateral: TeeCollateral): Collateral {
  const bare = (hex: string) => hex.slice(2)
  return {
    ...collateral,
    root_ca_crl: bare(collateral.root_ca_crl),
    pck_crl: bare(collateral.pck_crl),
    tcb_info_signature: bare(collateral.tcb_info_signature),
    qe_identity_signature: bare(collateral.qe_identity_signature),
  }
}

/** The other way: dcap-qvl's collateral (hex strings or byte arrays) as the contract writes it. */
export function fromDcapCollateral(collateral: Collateral): TeeCollateral {
  const hex = (value: string | number[]) => `0x${typeof value === 'string' ? value.toLowerCase().replace(/^0x/, '') : Buffer.from(value).toString('hex')}` as const
  return {
    pck_crl_issuer_chain: collateral.pck_crl_issuer_chain,
    root_ca_crl: hex(collateral.root_ca_crl),
    pck_crl: hex(collateral.pck_crl),
    tcb_info_issuer_chain: collateral.tcb_info_issuer_chain,
    tcb_info: collateral.tcb_info,
    tcb_info_signature: hex(collateral.tcb_info_signature),
    qe_identity_issuer_chain: collateral.qe_identity_issuer_chain,
    qe_identity: collateral.qe_identity,
    qe_identity_signature: hex(collateral.qe_identity_signature),
  }
}
