import { type Hex, bytesToHex } from 'viem'
import type { TeeCollateral, TeeEvidence } from '../contract/tee.ts'
import type { FetchAttestationReportReturnType } from './fetchAttestationReport.ts'

export type ToTeeEvidenceParameters = {
  service: { serviceId: string; signingAddress: Hex }
  fetched: FetchAttestationReportReturnType
  collateral: TeeCollateral | null
  rootCa: Uint8Array | undefined
}

/** What was fetched, as the contract records it: enough to verify it again offline. */
export function toTeeEvidence({ service, fetched, collateral, rootCa }: ToTeeEvidenceParameters): TeeEvidence {
  return {
    serviceId: service.serviceId,
    signingAddress: service.signingAddress,
    fetchedAt: fetched.fetchedAt.toISOString(),
    reportUrl: fetched.reportUrl,
    nonce: fetched.nonce,
    quote: bytesToHex(fetched.report.quote),
    collateral,
    eventLog: fetched.report.eventLog ?? null,
    appCompose: fetched.report.appCompose ?? null,
    rootCa: rootCa === undefined ? null : bytesToHex(rootCa),
  }
}
