import { formatUnits } from 'viem'
import { html } from '../html.ts'
import { site } from '../site.ts'

/** An amount in wei shown in the network's native token with its unit; the exact wei in the title. */
export function TokenAmount({ wei }: { wei: string }) {
  const { symbol, decimals } = site.currency
  return html`<span class="amount" title=${`${wei} wei`} data-wei=${wei}>${formatUnits(BigInt(wei), decimals)} ${symbol}</span>`
}
