import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { saveScreenshot } from './support/saveScreenshot.ts'
import { useExplorer } from './support/useExplorer.ts'

const explorer = useExplorer()

/** Widths of phones in use: a common one, and the narrowest still met (320 px). */
const phones = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'narrow', viewport: { width: 320, height: 640 } },
] as const

/** How far the page and each table scroll sideways, in CSS pixels (0 when they fit). */
async function overflow(page: Page): Promise<{ page: number; tables: number[] }> {
  return {
    // An expression, not a function: the tests are typed without the DOM library.
    page: await page.evaluate<number>('document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth'),
    tables: await page.locator('.table-wrap').evaluateAll((wraps) => wraps.map((wrap) => wrap.scrollWidth - wrap.clientWidth)),
  }
}

/** Opens a path at each phone width in light and dark, checks nothing scrolls sideways, saves screenshots; returns the 390 px light page. */
async function openOnPhones(path: string, name: string, ready: readonly string[]): Promise<Page> {
  let first: Page | undefined
  for (const { name: width, viewport } of phones) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await explorer.browser.context.newPage()
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme })
      await page.goto(`${explorer.server.baseUrl}${path}`)
      for (const selector of ready) await page.locator(selector).first().waitFor()
      await saveScreenshot(page, `${name}-${width}-${colorScheme}`)
      const measured = await overflow(page)
      expect(measured.page, `${path} at ${viewport.width} px (${colorScheme}): the page scrolls sideways`).toBeLessThanOrEqual(0)
      for (const [index, table] of measured.tables.entries())
        expect(table, `${path} at ${viewport.width} px (${colorScheme}): table ${index + 1} scrolls sideways`).toBeLessThanOrEqual(0)
      if (first === undefined) first = page
      else await page.close()
    }
  }
  return first as Page
}

async function listed() {
  const [services, jobs] = await Promise.all([explorer.client.services.listServices(), explorer.client.jobs.listJobs({ query: { limit: 1000 } })])
  if (services.status !== 200 || jobs.status !== 200) throw new Error('the API did not answer 200')
  return { services: services.body.services, jobs: jobs.body.jobs }
}

describe('at phone widths nothing scrolls sideways', () => {
  test('default: the market page, every service still showing its price, status and key', async () => {
    const { services } = await listed()
    const page = await openOnPhones('/', 'market', ['[data-table="services"] tbody tr', '[data-table="jobs"] tbody tr'])
    await page.locator('[data-field="key"]', { hasText: /rotated|original/ }).first().waitFor()
    await saveScreenshot(page, 'market-phone-light-loaded')
    for (const { serviceId } of services) {
      const row = page.locator(`[data-table="services"] tr[data-service-id="${serviceId}"]`)
      for (const field of ['model', 'price', 'max-input', 'status', 'key'])
        expect(await row.locator(`[data-field="${field}"]`).isVisible(), `service ${serviceId} ${field}`).toBe(true)
    }
    expect((await overflow(page)).page).toBeLessThanOrEqual(0)
    await page.close()
  })

  test('service pages: one with a rotated key, the delisted one, the inactive one', async () => {
    const { services } = await listed()
    for (const { serviceId } of services) {
      const page = await openOnPhones(`/services/${serviceId}`, `service-${serviceId}`, ['.timeline li', '[data-table="jobs"] tbody tr'])
      await page.close()
    }
  })

  test('seller page', async () => {
    const { services } = await listed()
    const page = await openOnPhones(`/sellers/${services[0]!.seller}`, 'seller', ['[data-table="services"] tbody tr', '[data-table="jobs"] tbody tr'])
    await page.close()
  })

  test('buyer page, opened by its own URL', async () => {
    const { jobs, services } = await listed()
    // An address that also sells is a seller's page.
    const sellers = new Set(services.map(({ seller }) => seller))
    const buyer = jobs.find((job) => !sellers.has(job.buyer))!.buyer
    await (await openOnPhones(`/buyers/${buyer}`, 'buyer', ['[data-table="jobs"] tbody tr'])).close()
  })

  test('a disputed job page, with its payouts', async () => {
    const { jobs } = await listed()
    const disputed = jobs.find(({ stateName }) => stateName === 'Disputed')!
    await (await openOnPhones(`/jobs/${disputed.jobId}`, 'job-disputed', ['[data-payout="dispute"]', '.timeline li'])).close()
  })

  test('job pages: a settled one with its attestation, a pending one', async () => {
    const { jobs } = await listed()
    const settled = jobs.find(({ stateName }) => stateName === 'Settled')!
    const pending = jobs.find(({ stateName }) => stateName === 'Pending')!
    const page = await openOnPhones(`/jobs/${settled.jobId}`, 'job-settled', ['[data-action="verify"]', '.timeline li'])
    await page.locator('[data-action="verify"]').click()
    await page.locator('[data-verify]').waitFor()
    await saveScreenshot(page, 'job-settled-phone-verified')
    expect((await overflow(page)).page).toBeLessThanOrEqual(0)
    await page.close()
    await (await openOnPhones(`/jobs/${pending.jobId}`, 'job-pending', ['[data-verify="none"]', '.timeline li'])).close()
  })
})
