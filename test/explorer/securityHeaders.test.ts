import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { saveScreenshot } from './support/saveScreenshot.ts'
import { useExplorer } from './support/useExplorer.ts'

const explorer = useExplorer()

/** What the browser refused under the page's policy: the events the page saw, and the console's own lines. */
type Refusals = { events: () => Promise<string[]>; console: string[]; errors: string[] }

/**
 * Opens a page with its headers as served (no CSP bypass) and records every policy violation: the
 * `securitypolicyviolation` events (listened for by a script the browser runs before the page's
 * own, outside its policy) and Chromium's console lines about refusals.
 */
/** What the init script uses of the page's globals (the test project's tsconfig has no DOM lib). */
type PageGlobal = {
  violations: string[]
  document: {
    addEventListener: (
      type: 'securitypolicyviolation',
      listener: (event: { effectiveDirective: string; blockedURI: string; sourceFile: string; lineNumber: number }) => void,
    ) => void
  }
}

async function openWatched(path: string): Promise<{ page: Page; refusals: Refusals }> {
  const page = await explorer.browser.context.newPage()
  await page.setViewportSize({ width: 1280, height: 900 })
  const refusals: Refusals = {
    console: [],
    errors: [],
    events: () => page.evaluate(() => (globalThis as unknown as PageGlobal).violations),
  }
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refusals.console.push(message.text())
  })
  page.on('pageerror', (error) => refusals.errors.push(error.message))
  await page.addInitScript(() => {
    const violations: string[] = []
    const page = globalThis as unknown as PageGlobal
    page.violations = violations
    page.document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`),
    )
  })
  const response = await page.goto(`${explorer.server.baseUrl}${path}`)
  const csp = response?.headers()['content-security-policy'] ?? ''
  expect(csp, `${path} has a policy`).toContain("script-src 'self'")
  expect(csp).toContain("frame-ancestors 'none'")
  return { page, refusals }
}

async function expectNoRefusals({ events, console, errors }: Refusals): Promise<void> {
  expect({ events: await events(), console, errors }).toEqual({ events: [], console: [], errors: [] })
}

describe('the pages with their security headers on, in Chromium', () => {
  test('default: the explorer renders the market from the API, and nothing is refused', async () => {
    const stats = await explorer.client.stats.getStats()
    if (stats.status !== 200) throw new Error(`stats: ${stats.status}`)
    const { page, refusals } = await openWatched('/')
    await page.locator('[data-table="jobs"] tbody tr').first().waitFor()
    expect(await page.locator('[data-stat="jobs"] .value').innerText()).toBe(String(stats.body.jobs.total))
    expect(await page.locator('[data-table="services"] tbody tr').count()).toBe(stats.body.services)
    await saveScreenshot(page, 'headers-explorer')
    await expectNoRefusals(refusals)
    await page.close()
  })

  test('Redoc renders the reference and runs (its search finds an operation), and nothing is refused', async () => {
    const { page, refusals } = await openWatched('/docs')
    // The reference is rendered on the server too: a search (Ctrl+K) proves Redoc's script runs.
    await page.getByText('Search').first().waitFor()
    await page.keyboard.press('Control+k')
    await page.keyboard.type('filter jobs')
    await page.getByText('List and filter jobs').filter({ visible: true }).first().waitFor()
    expect(await page.getByText('API docs by').first().isVisible()).toBe(true)
    await saveScreenshot(page, 'headers-redoc')
    await expectNoRefusals(refusals)
    await page.close()
  })

  test("Swagger UI's Try it out calls the API and shows its 200, and nothing is refused", async () => {
    const { page, refusals } = await openWatched('/docs/swagger')
    const operation = page.locator('#operations-stats-getStats')
    await operation.locator('.opblock-summary').click()
    await operation.locator('button.execute').click()
    await operation.locator('.live-responses-table tbody .response-col_status').first().waitFor()
    expect((await operation.locator('.live-responses-table tbody .response-col_status').first().innerText()).trim()).toBe('200')
    await saveScreenshot(page, 'headers-swagger')
    await expectNoRefusals(refusals)
    await page.close()
  })
})
