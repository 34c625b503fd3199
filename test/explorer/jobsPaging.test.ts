import type { Page } from 'playwright-core'
import { createPublicClient, http } from 'viem'
import { expect, inject, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { saveScreenshot } from './support/saveScreenshot.ts'
import { useExplorer } from './support/useExplorer.ts'

const explorer = useExplorer()

/** The seeded devnet as the contracts' own ABIs read it, not through our readers, store or REST API. */
async function readChain() {
  const { rpcUrl, deployment } = inject('devnet')
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const fromBlock = BigInt(deployment.deployBlock)
  const [created, registered] = await Promise.all([
    chain.getContractEvents({ address: deployment.escrow, abi: escrowAbi, eventName: 'JobCreated', fromBlock, strict: true }),
    chain.getContractEvents({ address: deployment.registry, abi: registryAbi, eventName: 'ServiceRegistered', fromBlock, strict: true }),
  ])
  const jobs = await Promise.all(
    created.map(async ({ args: { jobId, buyer } }) => {
      const { state, seller } = await chain.readContract({ address: deployment.escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })
      return { jobId: String(jobId), buyer, seller, state: Number(state) }
    }),
  )
  jobs.sort((a, b) => Number(BigInt(b.jobId) - BigInt(a.jobId)))
  return { jobs, sellers: new Set(registered.map(({ args }) => args.seller)) }
}

/** The job ids of every page of a jobs table, walked with "Older jobs" until it is disabled. */
async function walkPages(page: Page, name: string): Promise<string[]> {
  const ids: string[] = []
  for (let index = 0; ; index++) {
    await page.locator('[data-table="jobs"] tbody tr, [data-empty]').first().waitFor()
    ids.push(...(await page.locator('[data-table="jobs"] tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-job-id') ?? ''))))
    if (index < 2) await saveScreenshot(page, `${name}-page-${index + 1}`)
    const older = page.locator('[data-action="older"]')
    if (await older.isDisabled()) return ids
    const first = await page.locator('[data-table="jobs"] tbody tr').first().getAttribute('data-job-id')
    await older.click()
    await page.locator(`[data-table="jobs"] tbody tr[data-job-id="${first}"]`).waitFor({ state: 'detached' })
  }
}

test('default: searching a buyer opens the buyer page, which lists every job the chain says the address paid for', async () => {
  const { jobs, sellers } = await readChain()
  const counts = new Map<string, number>()
  for (const { buyer } of jobs) if (!sellers.has(buyer)) counts.set(buyer, (counts.get(buyer) ?? 0) + 1)
  const [buyer] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? []
  if (buyer === undefined) throw new Error('the seeded market has no buyer who sells nothing')
  const ofBuyer = jobs.filter((job) => job.buyer === buyer)

  const page = await explorer.browser.context.newPage()
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`${explorer.server.baseUrl}/`)
  await page.locator('input[name="q"]').fill(buyer.toLowerCase())
  await page.locator('input[name="q"]').press('Enter')
  await page.waitForURL(`**/buyers/${buyer.toLowerCase()}`)
  await page.locator('[data-table="jobs"] tbody tr').first().waitFor()
  expect(await page.locator('h1 .mono').innerText()).toBe(buyer)
  // The buyer's own page names the other party of each job: its seller.
  expect(await page.locator('[data-table="jobs"] [data-field="seller"] [data-address]').evaluateAll((links) => links.map((link) => link.getAttribute('data-address')))).toEqual(
    ofBuyer.slice(0, 20).map(({ seller }) => seller),
  )
  await page.locator('select[name="limit"]').selectOption('10')
  expect(await walkPages(page, 'buyer')).toEqual(ofBuyer.map(({ jobId }) => jobId))

  // The state filter is the API's: the settled jobs of the buyer, as the escrow's getJob has them now.
  await page.locator('select[name="state"]').selectOption('3')
  // Until the change has rendered, the unfiltered rows are still on the page.
  // Polled through a locator, not a string predicate: playwright evals a string at each frame, where
  // the explorer's CSP (no 'unsafe-eval') may refuse it.
  await expect
    .poll(() => page.locator('[data-table="jobs"] [data-field="state"]').allTextContents())
    .toSatisfy((states: string[]) => states.every((state) => state === 'Settled'))
  expect(await walkPages(page, 'buyer-settled')).toEqual(ofBuyer.filter(({ state }) => state === 3).map(({ jobId }) => jobId))
  await page.close()
})

test('an address that neither bought nor sold opens the buyer page, which says it paid for no job', async () => {
  const page = await explorer.browser.context.newPage()
  await page.goto(`${explorer.server.baseUrl}/`)
  const nobody = `0x${'12'.repeat(20)}`
  await page.locator('input[name="q"]').fill(nobody)
  await page.locator('input[name="q"]').press('Enter')
  await page.waitForURL(`**/buyers/${nobody}`)
  expect(await page.locator('[data-empty]').innerText()).toBe('This address has paid for no job.')
  await page.close()
})

test('a seller searched opens the seller page, which links to the jobs the address paid for', async () => {
  const { sellers } = await readChain()
  const seller = [...sellers][0]!
  const page = await explorer.browser.context.newPage()
  await page.goto(`${explorer.server.baseUrl}/`)
  await page.locator('input[name="q"]').fill(seller)
  await page.locator('input[name="q"]').press('Enter')
  await page.waitForURL(`**/sellers/${seller}`)
  await page.locator(`a[href="/buyers/${seller}"]`).click()
  await page.waitForURL(`**/buyers/${seller}`)
  await page.locator('[data-table="jobs"] tbody tr, [data-empty]').first().waitFor()
  await page.close()
})

test("paging: every page of the market's jobs table, 10 a page, is the chain's jobs newest first; Newer goes back", async () => {
  const { jobs } = await readChain()
  expect(jobs.length).toBeGreaterThan(10)
  const page = await explorer.browser.context.newPage()
  await page.setViewportSize({ width: 390, height: 844 })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(`${explorer.server.baseUrl}/`)
  await page.locator('[data-table="jobs"] tbody tr').first().waitFor()
  await page.locator('select[name="limit"]').selectOption('10')
  await page.locator('[data-table="jobs"] tbody tr').nth(10).waitFor({ state: 'detached' })
  expect(await walkPages(page, 'market-jobs')).toEqual(jobs.map(({ jobId }) => jobId))

  await page.locator('[data-action="newer"]').click()
  const lastFull = Math.ceil(jobs.length / 10) - 2
  const expected = jobs.slice(lastFull * 10, lastFull * 10 + 10).map(({ jobId }) => jobId)
  await page.locator(`[data-table="jobs"] tbody tr[data-job-id="${expected[0]}"]`).waitFor()
  expect(await page.locator('[data-table="jobs"] tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-job-id')))).toEqual(expected)
  await page.close()
})
