import { html } from '../html.ts'

export type AddressLinkProps = {
  address: string
  /** Links to the seller page; other addresses (buyers, keys) are shown only. */
  seller?: boolean
}

/** An address, shortened on screen with the full value in its title, and copyable as text. */
export function AddressLink({ address, seller = false }: AddressLinkProps) {
  const short = `${address.slice(0, 6)}…${address.slice(-4)}`
  const text = html`<span class="mono" title=${address}>${short}</span>`
  return seller ? html`<a href=${`/sellers/${address}`} data-address=${address}>${text}</a>` : html`<span data-address=${address}>${text}</span>`
}
