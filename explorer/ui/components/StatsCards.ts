import type { Stats } from '../../../contract/stats.ts'
import { html } from '../html.ts'
import { TokenAmount } from './TokenAmount.ts'

/** The market's aggregate counters, as /v1/stats has them. */
export function StatsCards({ stats }: { stats: Stats }) {
  const cards = [
    ['services', 'Services registered (active or not)', stats.services],
    ['jobs', 'Jobs created', stats.jobs.total],
    ['settled', 'Jobs ever settled (disputed later included)', stats.jobs.settled],
    ['expired', 'Jobs refunded on expiry', stats.jobs.expired],
    ['slashed', 'Jobs slashed after a dispute', stats.jobs.slashed],
  ] as const
  return html`<div class="cards" aria-label="Market statistics">
    ${cards.map(([key, label, value]) => html`<div class="card" key=${key} data-stat=${key}><div class="value">${value}</div><div class="label">${label}</div></div>`)}
    <div class="card" data-stat="totalSettled"><div class="value"><${TokenAmount} wei=${stats.totalSettledWei} /></div><div class="label">Settled in total (to sellers and fees)</div></div>
  </div>`
}
