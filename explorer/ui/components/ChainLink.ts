import { html } from '../html.ts'
import { site } from '../site.ts'

export type ChainLinkProps = { kind: 'tx' | 'block'; value: string }

/** A transaction hash or block number, linked to the network's block explorer when it has one. */
export function ChainLink({ kind, value }: ChainLinkProps) {
  const text = kind === 'tx' ? `${value.slice(0, 10)}…${value.slice(-6)}` : value
  if (site.explorerUrl === null) return html`<span class="mono" title=${value}>${text}</span>`
  return html`<a class="mono" href=${`${site.explorerUrl}/${kind}/${value}`} target="_blank" rel="noopener" title=${value}>${text}</a>`
}
