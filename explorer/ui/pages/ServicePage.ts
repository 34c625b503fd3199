import type { Service } from '../../../contract/service.ts'
import type { ServiceEventList } from '../../../contract/serviceEvent.ts'
import type { TeeVerdict } from '../../../contract/tee.ts'
import { client } from '../client.ts'
import { AddressLink } from '../components/AddressLink.ts'
import { PagedJobs } from '../components/PagedJobs.ts'
import { KeyHistory } from '../components/KeyHistory.ts'
import { LiveBadge } from '../components/LiveBadge.ts'
import { Problem } from '../components/Problem.ts'
import { ServiceStatusBadge } from '../components/ServiceStatusBadge.ts'
import { SellerText } from '../components/SellerText.ts'
import { serviceStatusOf } from '../components/serviceStatusOf.ts'
import { Time } from '../components/Time.ts'
import { TeeVerdictDetails } from '../components/TeeVerdictDetails.ts'
import { TokenAmount } from '../components/TokenAmount.ts'
import { VerifyTee } from '../components/VerifyTee.ts'
import { html } from '../html.ts'
import { useApi } from '../useApi.ts'
import { useFeed } from '../useFeed.ts'

/** One service: its registry record, its TEE verdict, its signing-key history and its jobs. */
export function ServicePage({ serviceId }: { serviceId: string }) {
  const feed = useFeed({ serviceId })
  const service = useApi<Service>(`service ${serviceId}`, (extraHeaders) => client.services.getService({ params: { id: serviceId }, extraHeaders }), {
    feed,
    // The event holds the service as GET /v1/services/:id serves it; a removed one is REST's 404 to tell.
    follow: ({ type, data }) => (type !== 'service' ? undefined : data.service === null ? 'reload' : { status: 'ready', data: data.service }),
  })
  // The registry history is not in the event: a change of the service is a reason to read it again.
  const history = useApi<ServiceEventList>(`history ${serviceId}`, (extraHeaders) => client.services.getServiceEvents({ params: { id: serviceId }, extraHeaders }), {
    feed,
    follow: ({ type }) => (type === 'service' ? 'reload' : undefined),
  })
  const tee = useApi<TeeVerdict>(`tee ${serviceId}`, (extraHeaders) => client.services.getTeeVerdict({ params: { id: serviceId }, extraHeaders }))
  if (service.status !== 'ready') return html`<h1>Service #${serviceId}</h1><${Problem} state=${service} />`
  const data = service.data
  return html`<h1>Service #${data.serviceId} <span data-field="status"><${ServiceStatusBadge} status=${serviceStatusOf(data, history.status === 'ready' ? history.data.events : undefined)} /></span></h1>
    <section>
      <dl class="record" aria-label="Service">
        <dt>Model</dt><dd data-field="model"><${SellerText} text=${data.modelId} /></dd>
        <dt>Provider</dt><dd data-field="provider"><${SellerText} text=${data.providerIdentity} /> (<${SellerText} text=${data.providerType} />) · <span class="mono break">${data.providerAddress}</span></dd>
        <dt>Seller</dt><dd><${AddressLink} address=${data.seller} page="sellers" /></dd>
        <dt>Price per call</dt><dd data-field="price"><${TokenAmount} wei=${data.pricePerCall} /></dd>
        <dt>Max input</dt><dd data-field="max-input">${Number(data.maxInputBytes).toLocaleString('en-US')} bytes</dd>
        <dt>Signing key</dt><dd class="mono break" data-field="signing-address">${data.signingAddress}</dd>
        <dt>Registered</dt><dd><${Time} seconds=${data.registeredAt} /></dd>
        <dt>Agent token</dt><dd>#${data.inftTokenId}</dd>
        <dt>Target separated</dt><dd>${data.targetSeparated ? 'yes' : 'no'}</dd>
        <dt>Capability hash</dt><dd class="mono break">${data.capabilityHash}</dd>
        <dt>Model commitment</dt><dd class="mono break">${data.modelCommitment}</dd>
      </dl>
    </section>
    <section aria-label="TEE">
      <h2>TEE</h2>
      ${tee.status === 'ready'
        ? html`<${TeeVerdictDetails} verdict=${tee.data} /><${VerifyTee} service=${data} />`
        : tee.status === 'missing'
          ? html`<p class="muted" data-field="tee-verdict">Not checked yet: the indexer has no TEE verdict for this service.</p>`
          : html`<${Problem} state=${tee} />`}
    </section>
    <section>
      <h2>Signing keys and history</h2>
      ${history.status === 'ready' ? html`<${KeyHistory} history=${history.data.events} />` : html`<${Problem} state=${history} />`}
    </section>
    <section>
      <h2>Jobs <${LiveBadge} feed=${feed} /></h2>
      <${PagedJobs} filter=${{ serviceId: data.serviceId }} label="Jobs of the service" feed=${feed} />
    </section>`
}
