import type { Page } from 'playwright-core'

/**
 * Serves the explorer's pages to `page` as an indexer of another chain would: the server's own
 * shell, with the chain id in its site data replaced. Only that: the API answers as before.
 */
export async function serveShellOnChain(page: Page, chainId: number): Promise<void> {
  await page.route(
    (url) => !url.pathname.startsWith('/v1/') && !url.pathname.startsWith('/explorer/'),
    async (route) => {
      const response = await route.fetch()
      const body = (await response.text()).replace(/"chainId":\d+/, `"chainId":${chainId}`)
      await route.fulfill({ response, body })
    },
  )
}
