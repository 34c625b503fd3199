import { afterAll, beforeAll, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { createMarketDriver, type MarketDriver } from '../indexer/support/createMarketDriver.ts'
import { startRestServer, type RestServer } from '../rest/startRestServer.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { launchBrowser, type LaunchedBrowser } from './support/launchBrowser.ts'
import { saveScreenshot } from './support/saveScreenshot.ts'

/**
 * How long to wait for what the pages show. They poll every 2 s and the test server's indexer every
 * 0.25 s, so it comes within seconds; the deadline is for a slow host's node, not a speed target.
 */
const within = 60_000

let devnet: StartDevnetReturnType
let market: MarketDriver
let server: RestServer
let browser: LaunchedBrowser

beforeAll(async () => {
  // A chain of its own: this test writes to it.
  devnet = await startTestDevnet({ seed: false })
  market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  server = await startRestServer({ devnet })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await devnet?.stop()
})

test('default: a settlement made while the pages are open appears on the job and market pages without a reload', async () => {
  const serviceId = await market.registerService()
  const jobId = String(await market.createJob({ serviceId }))

  const jobPage = await browser.context.newPage()
  await jobPage.goto(`${server.baseUrl}/jobs/${jobId}`)
  await jobPage.locator('h1 [data-field="state"]', { hasText: 'Pending' }).waitFor({ timeout: within })
  const marketPage = await browser.context.newPage()
  await marketPage.goto(`${server.baseUrl}/`)
  const row = marketPage.locator(`[data-table="jobs"] tr[data-job-id="${jobId}"] [data-field="state"]`)
  await row.filter({ hasText: 'Pending' }).waitFor({ timeout: within })
  const settledBefore = Number(await marketPage.locator('[data-stat="settled"] .value').innerText())

  await market.settleJob(BigInt(jobId))
  await jobPage.locator('h1 [data-field="state"]', { hasText: 'Settled' }).waitFor({ timeout: within })
  await jobPage.locator('.timeline li[data-event="JobSettled"]').waitFor({ timeout: within })
  await row.filter({ hasText: 'Settled' }).waitFor({ timeout: within })
  await marketPage.locator('[data-stat="settled"] .value', { hasText: String(settledBefore + 1) }).waitFor({ timeout: within })

  // The settled job now carries its attestation, and the browser check accepts it.
  await jobPage.locator('[data-action="verify"]').click()
  await jobPage.locator('[data-verify="true"]').waitFor()
  await saveScreenshot(jobPage, 'job-live-settled-desktop')
})
