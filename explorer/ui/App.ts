import { SearchBox } from './components/SearchBox.ts'
import { html } from './html.ts'
import { followLinks, usePath } from './navigate.ts'
import { BuyerPage } from './pages/BuyerPage.ts'
import { JobPage } from './pages/JobPage.ts'
import { MarketPage } from './pages/MarketPage.ts'
import { SellerPage } from './pages/SellerPage.ts'
import { ServicePage } from './pages/ServicePage.ts'
import { site } from './site.ts'

/** The page a path names; the server serves the same shell for each of these paths. */
function Page({ path }: { path: string }) {
  if (path === '/') return html`<${MarketPage} />`
  const match = /^\/(jobs|services|sellers|buyers)\/([^/]+)$/.exec(path)
  const [, kind, value = ''] = match ?? []
  if (kind === 'jobs') return html`<${JobPage} key=${value} jobId=${value} />`
  if (kind === 'services') return html`<${ServicePage} key=${value} serviceId=${value} />`
  if (kind === 'sellers') return html`<${SellerPage} key=${value} address=${value} />`
  if (kind === 'buyers') return html`<${BuyerPage} key=${value} address=${value} />`
  return html`<h1>Not found</h1><p class="problem">The explorer has no page at ${path}.</p>`
}

/** The explorer: a header with search and links to the API docs, and the page of the current path. */
export function App() {
  const path = usePath()
  return html`<div onClick=${followLinks}>
    <header class="top">
      <a class="brand" href="/">TEE Market <span class="muted">explorer</span></a>
      <span class="network" title=${`chain id ${site.chainId}`}>${site.network}</span>
      <nav><a href="/docs">API reference</a><a href="/docs/swagger">Try the API</a></nav>
      <${SearchBox} />
    </header>
    <main><${Page} path=${path} /></main>
  </div>`
}
