import { html } from '../html.ts'

export type AddressLinkProps = {
  address: string
  /** The page of the address this link opens; without it (signing keys) the address is shown only. */
  page?: 'sellers' | 'buyers'
}

/** An address, shortened on screen with the full value in its title, and copyable as text. */
export function AddressLink({ address, page }: AddressLinkProps) {
  const short = `${address.slice(0, 6)}…${address.slice(-4)}`
  const text = html`<span class="mono" title=${address}>${short}</span>`
  return page === undefined ? html`<span data-address=${address}>${text}</span>` : html`<a href=${`/${page}/${address}`} data-address=${address}>${text}</a>`
}
