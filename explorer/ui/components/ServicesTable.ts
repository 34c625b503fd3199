import type { Service } from '../../../contract/service.ts'
import { html } from '../html.ts'
import type { ServiceHistories } from '../useServiceHistories.ts'
import type { TeeVerdicts } from '../useTeeVerdicts.ts'
import { AddressLink } from './AddressLink.ts'
import { SellerText } from './SellerText.ts'
import { TeeBadge } from './TeeBadge.ts'
import { ServiceStatusBadge } from './ServiceStatusBadge.ts'
import { serviceStatusOf } from './serviceStatusOf.ts'
import { TokenAmount } from './TokenAmount.ts'

export type ServicesTableProps = {
  services: readonly Service[]
  /** The services' registry histories, for their key rotations and status; undefined while they load. */
  histories: ServiceHistories | undefined
  /** The services' TEE verdicts; undefined while they load or when the indexer serves none. */
  verdicts: TeeVerdicts | undefined
  label: string
}

/** Services, one row each: what a buyer compares before paying for a call. */
export function ServicesTable({ services, histories, verdicts, label }: ServicesTableProps) {
  if (services.length === 0) return html`<p class="muted">No services registered.</p>`
  return html`<div class="table-wrap">
    <table class="stack" aria-label=${label} data-table="services">
      <thead><tr><th>Service</th><th>Model</th><th>Seller</th><th class="num">Price per call</th><th class="num">Max input</th><th>Status</th><th>TEE</th><th>Key</th></tr></thead>
      <tbody>
        ${services.map((service) => {
          const history = histories?.get(service.serviceId)
          const rotated = history?.some(({ event }) => event === 'SigningAddressRotated')
          return html`<tr key=${service.serviceId} data-service-id=${service.serviceId}>
            <td class="lead"><a href=${`/services/${service.serviceId}`}>#${service.serviceId}</a></td>
            <td class="wrap" data-field="model"><${SellerText} text=${service.modelId} /><div class="muted small"><${SellerText} text=${service.providerIdentity} /></div></td>
            <td class="detail" data-label="Seller"><${AddressLink} address=${service.seller} page="sellers" /></td>
            <td class="num detail" data-label="Price" data-field="price"><${TokenAmount} wei=${service.pricePerCall} /></td>
            <td class="num detail" data-label="Max input" data-field="max-input">${Number(service.maxInputBytes).toLocaleString('en-US')} bytes</td>
            <td data-field="status"><${ServiceStatusBadge} status=${serviceStatusOf(service, history)} /></td>
            <td class="detail" data-label="TEE" data-field="tee">${verdicts === undefined ? html`<span class="muted" title="No TEE verdicts read.">…</span>` : html`<${TeeBadge} serviceId=${service.serviceId} verdict=${verdicts.get(service.serviceId)} />`}</td>
            <td class="detail" data-label="Signing key" data-field="key">${rotated === undefined ? '…' : rotated ? html`<span class="badge warn">rotated</span>` : 'original'}</td>
          </tr>`
        })}
      </tbody>
    </table>
  </div>`
}
