import { useState } from 'preact/hooks'
import type { Service } from '../../../contract/service.ts'
import type { TeeEvidence } from '../../../contract/tee.ts'
import { explorerAssetPaths } from '../../../server/explorer/buildExplorerShell.ts'
import { html } from '../html.ts'
import { site } from '../site.ts'
import type { VerifyTeeEvidenceReturnType } from '../tee/verifyTeeEvidence.ts'
import { client } from '../client.ts'
import { errorMessage } from '../useApi.ts'
import { IsoTime } from './IsoTime.ts'
import { SellerText } from './SellerText.ts'
import { TeeChecks } from './TeeChecks.ts'

type VerifierModule = typeof import('../tee/verifyTeeEvidence.ts')

type Outcome =
  | { status: 'idle' }
  | { status: 'working' }
  | { status: 'failed'; message: string }
  | { status: 'done'; result: VerifyTeeEvidenceReturnType; evidence: TeeEvidence }

/** Lets the browser paint "Verifying…" before the check, which holds the main thread for a second or two. */
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))

/**
 * "Verify in your browser": fetches the evidence behind the verdict and verifies the quote here,
 * as of the time it was fetched, with dcap-qvl bundled (explorer-tee.js, loaded on this click
 * only), and reads the service's registered signing key out of the verified report_data. A root
 * other than Intel's is trusted only when the explorer is on the devnet's chain.
 */
export function VerifyTee({ service }: { service: Service }) {
  const [outcome, setOutcome] = useState<Outcome>({ status: 'idle' })
  const verify = async (): Promise<void> => {
    setOutcome({ status: 'working' })
    try {
      const [answer, verifier] = await Promise.all([client.services.getTeeEvidence({ params: { id: service.serviceId } }), import(explorerAssetPaths.teeJs) as Promise<VerifierModule>])
      if (answer.status !== 200) {
        const why = answer.status === 404 ? 'There is no evidence to verify' : 'The evidence could not be fetched'
        return setOutcome({ status: 'failed', message: `${why}: ${errorMessage(answer)}` })
      }
      const evidence = answer.body as TeeEvidence
      await nextFrame()
      const result = verifier.verifyTeeEvidence({ evidence, signingAddress: service.signingAddress, chainId: site.chainId })
      setOutcome({ status: 'done', result, evidence })
    } catch (error) {
      setOutcome({ status: 'failed', message: `The evidence could not be verified here: ${String(error)}` })
    }
  }
  return html`<div class="verify">
    <button type="button" onClick=${verify} disabled=${outcome.status === 'working'} data-action="verify-tee">Verify in your browser</button>
    ${outcome.status === 'idle'
      ? html`<p class="muted small">Fetches the quote, its collateral and the trusted root the indexer used, and verifies them here in the page as of the time they were fetched, then reads this service's signing key out of the verified report_data.</p>`
      : outcome.status === 'working'
        ? html`<p class="muted" aria-busy="true">Verifying…</p>`
        : outcome.status === 'failed'
          ? html`<div role="alert" data-tee-verify="error">
              <p data-field="tee-browser-outcome"><span class="badge bad">✗ not verified in your browser</span></p>
              <p class="problem" data-field="tee-browser-reason">${outcome.message}</p>
            </div>`
          : html`<${BrowserResult} result=${outcome.result} evidence=${outcome.evidence} service=${service} />`}
  </div>`
}

function BrowserResult({ result, evidence, service }: { result: VerifyTeeEvidenceReturnType; evidence: TeeEvidence; service: Service }) {
  const failed = result.steps.find(({ status }) => status === 'fail')
  return html`<div data-tee-verify=${String(result.ok)}>
    <p data-field="tee-browser-outcome">
      <span class=${result.ok ? 'badge ok' : 'badge bad'}>${result.ok ? '✓ verified in your browser' : '✗ not verified in your browser'}</span>
      ${' '}as of <${IsoTime} iso=${evidence.fetchedAt} /> <span class="muted small">(${evidence.fetchedAt}, when the evidence was fetched)</span>
    </p>
    ${failed === undefined ? null : html`<p class="problem" data-field="tee-browser-reason"><${SellerText} text=${failed.reason} /></p>`}
    ${evidence.signingAddress.toLowerCase() === service.signingAddress.toLowerCase()
      ? null
      : html`<p class="muted small" data-field="tee-browser-stale">The evidence was fetched for signing key ${evidence.signingAddress}; the service's key is now ${service.signingAddress}.</p>`}
    <${TeeChecks} checks=${result.steps} label="Checks in your browser" />
  </div>`
}
