import type { TeeVerdict } from '../../../contract/tee.ts'
import { html } from '../html.ts'
import { IsoTime } from './IsoTime.ts'
import { SellerText } from './SellerText.ts'
import { TeeBadge } from './TeeBadge.ts'
import { TeeChecks } from './TeeChecks.ts'

/** The registers a reader compares with a published build, in the quote's order. */
const registers = [
  ['mrTd', 'MRTD'],
  ['rtmr0', 'RTMR0'],
  ['rtmr1', 'RTMR1'],
  ['rtmr2', 'RTMR2'],
  ['rtmr3', 'RTMR3'],
  ['mrConfigId', 'MR_CONFIG_ID'],
] as const

/** A service's TEE verdict as the indexer checked it: the checks, when, what was measured, and the 0G record. */
export function TeeVerdictDetails({ verdict }: { verdict: TeeVerdict }) {
  const { measurements, provider } = verdict
  return html`<p class="break" data-field="tee-verdict"><${TeeBadge} serviceId=${verdict.serviceId} verdict=${verdict} /> <span data-field="tee-summary"><${SellerText} text=${verdict.summary} /></span></p>
    <dl class="record" aria-label="TEE verdict">
      <dt>Checked</dt><dd data-field="tee-checked"><${IsoTime} iso=${verdict.checkedAt} /></dd>
      <dt>Stands until</dt><dd data-field="tee-expires"><${IsoTime} iso=${verdict.expiresAt} /></dd>
      <dt>Signing key judged</dt><dd class="mono break" data-field="tee-signing-address">${verdict.signingAddress}</dd>
      <dt>TCB status</dt><dd data-field="tee-tcb">${verdict.tcbStatus ?? 'unknown'}</dd>
      <dt>Advisories</dt><dd data-field="tee-advisories">${verdict.advisoryIds.length === 0 ? 'none' : verdict.advisoryIds.join(', ')}</dd>
    </dl>
    <h3>Checks</h3>
    <${TeeChecks} checks=${verdict.checks} label="TEE checks" />
    <h3>Measurements</h3>
    ${measurements === null
      ? html`<p class="muted" data-field="tee-measurements">None: no quote verified.</p>`
      : html`<dl class="record" aria-label="Measurements" data-field="tee-measurements">
          ${registers.map(([key, name]) => html`<dt>${name}</dt><dd class="mono break" data-register=${key}>${measurements[key]}</dd>`)}
          <dt>Compose hash</dt><dd class="mono break" data-register="composeHash">${measurements.composeHash ?? 'none could be read'}</dd>
        </dl>`}
    <h3>0G provider record</h3>
    ${provider === null
      ? html`<p class="muted" data-field="tee-provider">The provider has no record on 0G.</p>`
      : html`<dl class="record" aria-label="0G provider record" data-field="tee-provider">
          <dt>URL</dt><dd class="mono break" data-field="tee-provider-url"><${SellerText} text=${provider.url} /></dd>
          <dt>Model</dt><dd data-field="tee-provider-model"><${SellerText} text=${provider.model} /></dd>
          <dt>Verifiability</dt><dd><${SellerText} text=${provider.verifiability} /></dd>
          <dt>TEE signer</dt><dd class="mono break">${provider.teeSignerAddress ?? 'none (zero address)'}</dd>
          <dt>Acknowledged by 0G</dt><dd data-field="tee-provider-acknowledged">${provider.teeSignerAcknowledged ? 'yes' : 'no'}</dd>
          <dt>TeeTLS (target separated)</dt><dd>${provider.targetSeparated ? 'yes: the TEE attests the proxy, the model runs upstream' : 'no'}</dd>
        </dl>`}`
}
