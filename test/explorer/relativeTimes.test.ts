import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { startRestServer, type RestServer } from '../rest/startRestServer.ts'
import { launchBrowser, type LaunchedBrowser } from './support/launchBrowser.ts'
import { saveScreenshot } from './support/saveScreenshot.ts'

// A browser of its own, in a known locale and zone, so the exact time in the title can be written here.
let server: RestServer
let browser: LaunchedBrowser
beforeAll(async () => {
  server = await startRestServer()
  browser = await launchBrowser({ locale: 'en-US', timezoneId: 'UTC' })
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** The job's record as the escrow has it, read with its own ABI. */
async function readJobTimes(jobId: bigint) {
  const { rpcUrl, deployment } = inject('devnet')
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const job = await chain.readContract({ address: deployment.escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })
  return { createdAt: Number(job.createdAt), timeout: Number(job.timeout) }
}

const exactTitle = (seconds: number) => {
  const date = new Date(seconds * 1000)
  return `${date.toLocaleString('en-US', { timeZone: 'UTC' })} (${date.toISOString()})`
}

test('default: a job page says how long ago it was created and when it expires, the exact times on hover, and keeps them right as time passes', async () => {
  const { createdAt, timeout } = await readJobTimes(9n)
  const page = await browser.context.newPage()
  // The page's clock, 90 s after the job's creation: the chain's clock is not the wall clock here.
  await page.clock.install({ time: (createdAt + 90) * 1000 })
  await page.goto(`${server.baseUrl}/jobs/9`)
  const created = page.locator('[data-field="created"] time')
  await created.waitFor()
  expect(await created.innerText()).toBe('1 minute ago')
  expect(await created.getAttribute('title')).toBe(exactTitle(createdAt))
  expect(await created.getAttribute('datetime')).toBe(new Date(createdAt * 1000).toISOString())
  const expires = page.locator('[data-field="expires"] time')
  expect(await expires.getAttribute('title')).toBe(exactTitle(timeout))
  expect(await expires.innerText()).toMatch(/^in \d+ (hours?|minutes?|days?)$/)
  await created.hover()
  await saveScreenshot(page, 'relative-times-job')

  await page.clock.runFor('02:00')
  expect(await created.innerText()).toBe('3 minutes ago')
  await page.clock.runFor('03:00:00')
  expect(await created.innerText()).toBe('3 hours ago')
  expect(await created.getAttribute('title')).toBe(exactTitle(createdAt))
  await page.close()
})

test("the market's jobs table and a job's timeline show relative times too, each with its exact time in the title", async () => {
  const page = await browser.context.newPage()
  await page.goto(`${server.baseUrl}/`)
  const cell = page.locator('table time').first()
  await cell.waitFor()
  expect(await cell.innerText()).toMatch(/^(now|\d+ (seconds?|minutes?|hours?|days?) ago|in \d+ (seconds?|minutes?))$/)
  expect(await cell.getAttribute('title')).toMatch(/ \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z\)$/)
  await page.goto(`${server.baseUrl}/jobs/9`)
  const step = page.locator('.timeline time').first()
  await step.waitFor()
  expect(await step.getAttribute('title')).toBe(exactTitle((await readJobTimes(9n)).createdAt))
  await saveScreenshot(page, 'relative-times-timeline')
  await page.close()
})
