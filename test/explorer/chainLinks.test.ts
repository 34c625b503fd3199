import { afterAll, beforeAll, expect, test } from 'vitest'
import type { JobDetail } from '../../contract/job.ts'
import { startRestServer, type RestServer } from '../rest/startRestServer.ts'
import { launchBrowser, type LaunchedBrowser } from './support/launchBrowser.ts'

// A network with a block explorer (as 0g-mainnet has chainscan): the devnet's chain, configured with one.
const explorerUrl = 'https://chainscan.example.org'

let server: RestServer
let browser: LaunchedBrowser

beforeAll(async () => {
  server = await startRestServer({ explorerUrl })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

test('default: with a block explorer configured, each event links its block and transaction there', async () => {
  const job = (await (await fetch(`${server.baseUrl}/v1/jobs/1`)).json()) as JobDetail
  const page = await browser.context.newPage()
  await page.goto(`${server.baseUrl}/jobs/1`)
  await page.locator('.timeline li').first().waitFor()
  const links = await page.locator('.timeline a').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')))
  expect(links).toEqual(job.events.flatMap(({ blockNumber, transactionHash }) => [`${explorerUrl}/block/${blockNumber}`, `${explorerUrl}/tx/${transactionHash}`]))
  // Links only: nothing was loaded from the block explorer.
  expect(browser.requests.filter((url) => url.startsWith(explorerUrl))).toEqual([])
})

test('without one (the devnet), blocks and transactions are plain text', async () => {
  const plain = await startRestServer()
  try {
    const page = await browser.context.newPage()
    await page.goto(`${plain.baseUrl}/jobs/1`)
    await page.locator('.timeline li').first().waitFor()
    expect(await page.locator('.timeline a').count()).toBe(0)
  } finally {
    await plain.stop()
  }
})
