import { useState } from 'preact/hooks'
import { verifyAttestation, type VerifyAttestationReturnType } from '../../../chain/attestation/verifyAttestation.ts'
import type { JobDetail } from '../../../contract/job.ts'
import type { Service } from '../../../contract/service.ts'
import type { ServiceEvent } from '../../../contract/serviceEvent.ts'
import { html } from '../html.ts'
import { signingKeyAtAttestation } from '../../../contract/signingKeyAtAttestation.ts'

export type VerifyAttestationProps = {
  job: JobDetail
  service: Service
  history: readonly ServiceEvent[]
}

/**
 * "Verify in your browser": recovers the attestation's signer from the text and signature on this
 * page with the indexer's own attestation code, bundled, and compares it with the service's
 * registered key. Nothing is asked of any server for the check itself.
 */
export function VerifyAttestation({ job, service, history }: VerifyAttestationProps) {
  const [result, setResult] = useState<VerifyAttestationReturnType | undefined>(undefined)
  if (job.attestationText === undefined || job.attestationSignature === undefined) {
    return html`<p class="muted" data-verify="none">No attestation to verify: the job is ${job.stateName} (state ${job.state}), and a job carries its attestation from Attested on.</p>`
  }
  const keyThen = signingKeyAtAttestation(job.events, history)
  const verify = (): void =>
    setResult(
      verifyAttestation({
        text: job.attestationText as `0x${string}`,
        signature: job.attestationSignature as `0x${string}`,
        expectedSigner: service.signingAddress,
        attestedSigner: keyThen,
      }),
    )
  return html`<div class="verify">
    <button type="button" onClick=${verify} data-action="verify">Verify in your browser</button>
    ${result === undefined
      ? html`<p class="muted small">Recovers the ECDSA signer of the attestation text shown above, here in the page, and compares it with the service's registered signing key.</p>`
      : html`<dl class="result" data-verify=${String(result.ok)}>
          <dt>Valid</dt><dd data-field="ok"><span class=${result.ok ? 'badge ok' : 'badge bad'}>${String(result.ok)}</span></dd>
          <dt>Recovered signer</dt><dd class="mono break" data-field="recovered">${result.recoveredSigner ?? 'none (malformed signature)'}</dd>
          <dt>Registered signer</dt><dd class="mono break" data-field="expected">${result.expectedSigner}</dd>
          ${keyThen === undefined ? null : html`<dt>Key when attested</dt><dd class="mono break" data-field="key-then">${keyThen}</dd>`}
          <dt>Note</dt><dd data-field="note">${result.note}</dd>
        </dl>`}
  </div>`
}
