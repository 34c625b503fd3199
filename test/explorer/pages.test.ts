import type { Page } from 'playwright-core'
import { recoverMessageAddress, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import type { JobDetail } from '../../contract/job.ts'
import type { ServiceEvent } from '../../contract/serviceEvent.ts'
import { readServiceStatuses } from './support/readServiceStatuses.ts'
import { saveScreenshot } from './support/saveScreenshot.ts'
import { useExplorer } from './support/useExplorer.ts'
import { toNativeAmount } from './support/toNativeAmount.ts'

const explorer = useExplorer()

/** What the API says, through the typed client: the oracle for what the pages show. */
async function api() {
  const [stats, services, jobs] = await Promise.all([
    explorer.client.stats.getStats(),
    explorer.client.services.listServices(),
    explorer.client.jobs.listJobs({ query: { limit: 1000 } }),
  ])
  if (stats.status !== 200 || services.status !== 200 || jobs.status !== 200) throw new Error('the API did not answer 200')
  const histories = new Map<string, ServiceEvent[]>()
  for (const { serviceId } of services.body.services) {
    const history = await explorer.client.services.getServiceEvents({ params: { id: serviceId } })
    if (history.status !== 200) throw new Error(`service ${serviceId} history: ${history.status}`)
    histories.set(serviceId, history.body.events)
  }
  return { stats: stats.body, services: services.body.services, jobs: jobs.body.jobs, histories }
}

async function jobDetail(jobId: string): Promise<JobDetail> {
  const answer = await explorer.client.jobs.getJob({ params: { id: jobId } })
  if (answer.status !== 200) throw new Error(`job ${jobId}: ${answer.status}`)
  return answer.body
}

const widths = {
  desktop: { viewport: { width: 1280, height: 900 }, colorScheme: 'light' },
  phone: { viewport: { width: 390, height: 844 }, colorScheme: 'dark' },
} as const

/** Opens a path at both widths (desktop light, phone dark), saving a screenshot of each; returns the desktop page. */
async function open(path: string, name: string, ready: string): Promise<Page> {
  let desktop: Page | undefined
  for (const [width, { viewport, colorScheme }] of Object.entries(widths)) {
    const page = await explorer.browser.context.newPage()
    await page.setViewportSize(viewport)
    await page.emulateMedia({ colorScheme })
    await page.goto(`${explorer.server.baseUrl}${path}`)
    await page.locator(ready).first().waitFor()
    await saveScreenshot(page, `${name}-${width}`)
    if (width === 'desktop') desktop = page
    else await page.close()
  }
  return desktop as Page
}

test('default: the market page shows the stats, every service and the newest jobs as the API has them', async () => {
  const { stats, services, jobs, histories } = await api()
  const statuses = await readServiceStatuses()
  const page = await open('/', 'market', '[data-table="jobs"] tbody tr')
  await page.locator('[data-field="key"]', { hasText: /rotated|original/ }).first().waitFor()

  const stat = (key: string) => page.locator(`[data-stat="${key}"] .value`).innerText()
  expect(await stat('services')).toBe(String(stats.services))
  expect(await stat('jobs')).toBe(String(stats.jobs.total))
  expect(await stat('settled')).toBe(String(stats.jobs.settled))
  expect(await stat('expired')).toBe(String(stats.jobs.expired))
  expect(await stat('slashed')).toBe(String(stats.jobs.slashed))
  expect(await stat('totalSettled')).toBe(toNativeAmount(stats.totalSettledWei, 'ETH'))

  const rows = page.locator('[data-table="services"] tbody tr')
  expect(await rows.count()).toBe(services.length)
  for (const service of services) {
    const row = page.locator(`[data-table="services"] tr[data-service-id="${service.serviceId}"]`)
    expect(await row.locator('[data-field="model"]').innerText()).toContain(service.modelId)
    expect(await row.locator('[data-field="price"]').innerText()).toBe(toNativeAmount(service.pricePerCall, 'ETH'))
    expect(await row.locator('[data-field="max-input"]').innerText()).toBe(`${Number(service.maxInputBytes).toLocaleString('en-US')} bytes`)
    expect(await row.locator('[data-field="status"]').innerText(), `service ${service.serviceId}`).toBe(statuses.get(service.serviceId) ?? 'active')
    const rotated = histories.get(service.serviceId)?.some(({ event }) => event === 'SigningAddressRotated')
    expect(await row.locator('[data-field="key"]').innerText()).toBe(rotated ? 'rotated' : 'original')
  }
  // The seed delists one service, sets another inactive and rotates a key: without them, two columns would go unchecked.
  expect([...statuses.values()].sort()).toEqual(['delisted', 'inactive'])

  const jobRows = page.locator('[data-table="jobs"] tbody tr')
  const newest = jobs.slice(0, 20)
  expect(await jobRows.count()).toBe(newest.length)
  for (const [index, job] of newest.entries()) {
    const row = jobRows.nth(index)
    expect(await row.getAttribute('data-job-id')).toBe(job.jobId)
    expect(await row.locator('[data-field="state"]').innerText()).toBe(job.stateName)
    expect(await row.locator('[data-field="amount"]').innerText()).toBe(toNativeAmount(job.amount, 'ETH'))
  }
  await page.close()
})

describe('job page', () => {
  test('a settled job: state, amounts, timeline, and the browser check recovers the registered signer', async () => {
    const { jobs, services, histories } = await api()
    const unrotated = new Set(services.filter(({ serviceId }) => !histories.get(serviceId)?.some(({ event }) => event === 'SigningAddressRotated')).map(({ serviceId }) => serviceId))
    const summary = jobs.find((job) => job.stateName === 'Settled' && unrotated.has(job.serviceId))
    if (summary === undefined) throw new Error('the seeded market has no settled job of a service that kept its key')
    const job = await jobDetail(summary.jobId)
    const service = services.find(({ serviceId }) => serviceId === job.serviceId)!
    const page = await open(`/jobs/${job.jobId}`, 'job-settled', '[data-action="verify"]')

    expect(await page.locator('h1 [data-field="state"]').innerText()).toBe('Settled')
    expect(await page.locator('[data-field="amount"]').innerText()).toBe(toNativeAmount(job.amount, 'ETH'))
    expect(await page.locator('[data-field="fee"]').innerText()).toBe(toNativeAmount(job.protocolFee, 'ETH'))
    expect(await page.locator('.timeline li').evaluateAll((items) => items.map((item) => item.getAttribute('data-event')))).toEqual(
      job.events.map(({ event }) => event),
    )
    for (const event of job.events) expect(await page.locator('.timeline').innerText()).toContain(event.blockNumber)
    expect(await page.locator('[data-field="provider"]').innerText()).toContain(job.attestation!.providerIdentity)

    const before = explorer.browser.requests.length
    await page.locator('[data-action="verify"]').click()
    await page.locator('[data-verify="true"]').waitFor()
    await saveScreenshot(page, 'job-settled-verified-desktop')
    // The check itself asks nothing of any server.
    expect(explorer.browser.requests.slice(before).filter((url) => !url.includes(`/v1/jobs/${job.jobId}`))).toEqual([])
    // The oracle recovers with viem's own recovery, not the page's code.
    const signer = await recoverMessageAddress({ message: { raw: job.attestationText as Hex }, signature: job.attestationSignature as Hex })
    expect(signer).toBe(service.signingAddress)
    expect(await page.locator('[data-field="ok"]').innerText()).toBe('true')
    expect(await page.locator('[data-field="recovered"]').innerText()).toBe(signer)
    expect(await page.locator('[data-field="expected"]').innerText()).toBe(service.signingAddress)
    await page.close()
  })

  test('a job signed before its service rotated its key: false, with the rotation note', async () => {
    const { jobs, services, histories } = await api()
    const candidates = jobs.filter((job) => job.stateName === 'Settled' && histories.get(job.serviceId)?.some(({ event }) => event === 'SigningAddressRotated'))
    let chosen: { job: JobDetail; oldKey: string } | undefined
    for (const candidate of candidates) {
      const job = await jobDetail(candidate.jobId)
      const attested = job.events.find(({ event }) => event === 'JobAttested')!
      const rotation = histories.get(job.serviceId)!.find(({ event }) => event === 'SigningAddressRotated')!
      if (BigInt(attested.blockNumber) < BigInt(rotation.blockNumber)) chosen = { job, oldKey: rotation.previousSigningAddress! }
      if (chosen) break
    }
    if (chosen === undefined) throw new Error('the seeded market has no job attested before a key rotation')
    const { job, oldKey } = chosen
    const service = services.find(({ serviceId }) => serviceId === job.serviceId)!
    const page = await open(`/jobs/${job.jobId}`, 'job-rotated', '[data-action="verify"]')
    await page.locator('[data-action="verify"]').click()
    await page.locator('[data-verify="false"]').waitFor()
    await saveScreenshot(page, 'job-rotated-verified-desktop')
    const signer = await recoverMessageAddress({ message: { raw: job.attestationText as Hex }, signature: job.attestationSignature as Hex })
    expect(signer).toBe(oldKey)
    expect(await page.locator('[data-field="ok"]').innerText()).toBe('false')
    expect(await page.locator('[data-field="recovered"]').innerText()).toBe(oldKey)
    expect(await page.locator('[data-field="expected"]').innerText()).toBe(service.signingAddress)
    expect(await page.locator('[data-field="note"]').innerText()).toMatch(/rotated its signing key/)
    await page.close()
  })

  test('a pending job: no attestation, so no check', async () => {
    const { jobs } = await api()
    const pending = jobs.find((job) => job.stateName === 'Pending')
    if (pending === undefined) throw new Error('the seeded market has no pending job')
    const page = await open(`/jobs/${pending.jobId}`, 'job-pending', '[data-verify="none"]')
    expect(await page.locator('h1 [data-field="state"]').innerText()).toBe('Pending')
    expect(await page.locator('[data-action="verify"]').count()).toBe(0)
    expect(await page.locator('[data-verify="none"]').innerText()).toContain('Pending')
    await page.close()
  })

  test('an unknown job says so', async () => {
    const page = await explorer.browser.context.newPage()
    await page.goto(`${explorer.server.baseUrl}/jobs/999999`)
    await expect(page.locator('.problem').innerText()).resolves.toMatch(/999999/)
    await page.close()
  })
})

test('service page: the record, the signing-key history from the events, and the jobs', async () => {
  const { services, jobs, histories } = await api()
  const service = services.find(({ serviceId }) => histories.get(serviceId)?.some(({ event }) => event === 'SigningAddressRotated'))!
  const history = histories.get(service.serviceId)!
  const page = await open(`/services/${service.serviceId}`, 'service', '[data-table="jobs"] tbody tr')
  expect(await page.locator('[data-field="model"]').innerText()).toBe(service.modelId)
  expect(await page.locator('[data-field="price"]').innerText()).toBe(toNativeAmount(service.pricePerCall, 'ETH'))
  expect(await page.locator('[data-field="signing-address"]').innerText()).toBe(service.signingAddress)
  expect(await page.locator('.timeline li').evaluateAll((items) => items.map((item) => item.getAttribute('data-event')))).toEqual(
    history.map(({ event }) => event),
  )
  const rotation = history.find(({ event }) => event === 'SigningAddressRotated')!
  const text = await page.locator('.timeline').innerText()
  expect(text).toContain(rotation.previousSigningAddress)
  expect(text).toContain(rotation.signingAddress)
  const ofService = jobs.filter(({ serviceId }) => serviceId === service.serviceId)
  expect(await page.locator('[data-table="jobs"] tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-job-id')))).toEqual(
    ofService.map(({ jobId }) => jobId),
  )
  await page.close()
})

describe('service status', () => {
  test('a delisted service and one set inactive with updateService are told apart, in the title and the history', async () => {
    const statuses = await readServiceStatuses()
    const { histories } = await api()
    const described = { delisted: 'ServiceDelisted', inactive: 'ServiceUpdated' } as const
    for (const status of ['delisted', 'inactive'] as const) {
      const serviceId = [...statuses].find(([, value]) => value === status)?.[0]
      if (serviceId === undefined) throw new Error(`the seeded market has no ${status} service`)
      const page = await open(`/services/${serviceId}`, `service-${status}`, '.timeline li')
      await page.locator('h1 [data-field="status"] [data-status]').waitFor()
      expect(await page.locator('h1 [data-field="status"]').innerText()).toBe(status)
      const event = described[status]
      expect(histories.get(serviceId)?.at(-1)?.event).toBe(event)
      expect(await page.locator(`.timeline li[data-event="${event}"]`).last().innerText()).toContain(status)
      await page.close()
    }
  })
})

test('seller page: their services and jobs, with totals', async () => {
  const { services } = await api()
  const address = services[0]!.seller
  const answer = await explorer.client.sellers.getSeller({ params: { address } })
  if (answer.status !== 200) throw new Error(`seller: ${answer.status}`)
  const seller = answer.body
  const page = await open(`/sellers/${address}`, 'seller', '[data-table="jobs"] tbody tr')
  expect(await page.locator('[data-stat="services"] .value').innerText()).toBe(String(seller.services.length))
  expect(await page.locator('[data-stat="jobs"] .value').innerText()).toBe(String(seller.jobs.length))
  const settled = seller.jobs.filter(({ stateName }) => stateName === 'Settled')
  expect(await page.locator('[data-stat="settled"] .value').innerText()).toBe(String(settled.length))
  const escrowed = seller.jobs.reduce((sum, job) => sum + BigInt(job.amount), 0n)
  expect(await page.locator('[data-stat="escrowed"] .value').innerText()).toBe(toNativeAmount(String(escrowed), 'ETH'))
  expect(await page.locator('[data-table="services"] tbody tr').count()).toBe(seller.services.length)
  expect(await page.locator('[data-table="jobs"] tbody tr').count()).toBe(seller.jobs.length)
  await page.close()
})

test('search: a job id, a service id and an address each open their page', async () => {
  const { services, jobs } = await api()
  const page = await explorer.browser.context.newPage()
  await page.goto(`${explorer.server.baseUrl}/`)
  const search = async (text: string): Promise<void> => {
    await page.locator('input[name="q"]').fill(text)
    await page.locator('input[name="q"]').press('Enter')
  }
  const job = jobs.at(-1)!
  await search(`job ${job.jobId}`)
  await page.waitForURL(`**/jobs/${job.jobId}`)
  await search(`service ${services[0]!.serviceId}`)
  await page.waitForURL(`**/services/${services[0]!.serviceId}`)
  await search(services[0]!.seller.toLowerCase())
  await page.waitForURL(`**/sellers/${services[0]!.seller.toLowerCase()}`)
  // A bare number that names both a job and a service offers both.
  await search('1')
  await expect(page.locator('.search-note').innerText()).resolves.toBe('Job #1 or Service #1')
  await page.close()
})

test('search: a transaction hash opens the job or the service whose event it emitted', async () => {
  const { jobs, histories } = await api()
  const page = await explorer.browser.context.newPage()
  await page.setViewportSize(widths.phone.viewport)
  await page.goto(`${explorer.server.baseUrl}/`)
  const search = async (text: string): Promise<void> => {
    await page.locator('input[name="q"]').fill(text)
    await page.locator('input[name="q"]').press('Enter')
  }
  // The settlement of the oldest settled job: JobAttested and JobSettled in one transaction, pasted in capitals.
  const settled = await jobDetail(jobs.findLast(({ stateName }) => stateName === 'Settled')!.jobId)
  const settlement = settled.events.find(({ event }) => event === 'JobSettled')!.transactionHash
  await search(`0x${settlement.slice(2).toUpperCase()}`)
  await page.waitForURL(`**/jobs/${settled.jobId}`)
  await page.locator('.timeline li').first().waitFor()
  // A delisting transaction: the delisted service.
  const [serviceId, history] = [...histories].find(([, events]) => events.some(({ event }) => event === 'ServiceDelisted'))!
  await search(history.find(({ event }) => event === 'ServiceDelisted')!.transactionHash)
  await page.waitForURL(`**/services/${serviceId}`)
  await page.locator('.timeline li').first().waitFor()
  // A hash the market never saw says so.
  await search(`0x${'ab'.repeat(32)}`)
  await expect(page.locator('.search-note').innerText()).resolves.toMatch(/^The transaction 0xabababab…ababab emitted no event of a job or a service/)
  await saveScreenshot(page, 'search-unknown-transaction-phone')
  expect(page.url()).toBe(`${explorer.server.baseUrl}/services/${serviceId}`)
  await page.close()
})

test('docs: Redoc and Swagger UI read /openapi.json from this origin, and link to each other', async () => {
  const page = await explorer.browser.context.newPage()
  await page.goto(`${explorer.server.baseUrl}/docs/swagger`)
  await page.locator('.opblock').first().waitFor()
  await saveScreenshot(page, 'swagger-desktop')
  // The document's relative server URL resolves to the origin that serves it.
  await expect(page.locator('.servers select, .servers').first().innerText()).resolves.toContain('/')
  await page.locator('#operations-jobs-getJob .opblock-summary').click()
  await page.locator('#operations-jobs-getJob input[placeholder="id"]').fill('1')
  await page.locator('#operations-jobs-getJob .execute').click()
  await page.locator('#operations-jobs-getJob .live-responses-table tbody .response-col_status').first().waitFor()
  expect(await page.locator('#operations-jobs-getJob .live-responses-table tbody .response-col_status').first().innerText()).toContain('200')
  // "/" resolved against the page: the request went to the origin that serves the document.
  expect(await page.locator('#operations-jobs-getJob .request-url').innerText()).toContain(`${explorer.server.baseUrl}/v1/jobs/1`)
  await page.goto(`${explorer.server.baseUrl}/docs`)
  await page.locator('a[href="/docs/swagger"]').first().waitFor()
  await saveScreenshot(page, 'redoc-desktop')
  // The document's server is relative ("/"): Redoc names no other origin or port.
  expect(await page.locator('body').innerText()).not.toMatch(/https?:\/\/(?:127\.0\.0\.1|localhost)/)
  await page.close()
})

test('no page made a request outside the server', () => {
  const origin = new URL(explorer.server.baseUrl).origin
  expect(explorer.browser.requests.length).toBeGreaterThan(0)
  // data: URLs are inline, and blob: URLs (Redoc's workers) are the page's own memory: URL.origin is the page's.
  expect(explorer.browser.requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([])
})
