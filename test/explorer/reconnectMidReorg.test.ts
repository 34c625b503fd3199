import type { Page } from 'playwright-core'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { FeedEventType, JobFeedData, ServiceFeedData } from '../../contract/feed.ts'
import type { JobDetail } from '../../contract/job.ts'
import type { JobList, ServiceList } from '../../contract/lists.ts'
import type { Service } from '../../contract/service.ts'
import { startCuttableProxy, type CuttableProxy } from '../support/startCuttableProxy.ts'
import { saveScreenshot } from './support/saveScreenshot.ts'
import { useOwnMarket } from './support/useOwnMarket.ts'

// Issue 40, "Reconnect mid-reorg", with a real EventSource in Chromium: cut off behind a proxy,
// the chain reorganised meanwhile, the browser reconnects by itself with Last-Event-ID.

/** Deadline for what the browser and the indexer do; not a speed target. */
const within = 60_000

// A chain of its own: this test reverts it.
const own = useOwnMarket()
let proxy: CuttableProxy

beforeAll(async () => {
  proxy = await startCuttableProxy({ target: own.server.baseUrl })
})
afterAll(async () => {
  await proxy?.stop()
})

/** One thing the page's EventSource did: opened, failed (with its readyState), or an event with its id and data. */
type Logged =
  | { type: 'open' }
  | { type: 'error'; readyState: number }
  | { type: FeedEventType; id: string; data: unknown }

/** What the page script uses of the browser's globals (the test project's tsconfig has no DOM lib). */
type PageGlobal = {
  feedLog: Logged[]
  feedSource: { readyState: number }
  EventSource: new (url: string) => {
    readyState: number
    onopen: () => void
    onerror: () => void
    addEventListener(type: string, listener: (event: { data: string; lastEventId: string }) => void): void
  }
}

/** The stream the test opens in the page: every record event (the default `types`, spelled out to tell it from the page's own stream). */
const streamPath = '/v1/events?types=job,service'

async function openRecordedStream(page: Page, url: string): Promise<void> {
  await page.evaluate((url) => {
    const page = globalThis as unknown as PageGlobal
    const log: Logged[] = []
    const source = new page.EventSource(url)
    page.feedLog = log
    page.feedSource = source
    source.onopen = () => log.push({ type: 'open' })
    source.onerror = () => log.push({ type: 'error', readyState: source.readyState })
    for (const type of ['job', 'service', 'head', 'reorg', 'reset'] as const)
      source.addEventListener(type, (event) => log.push({ type, id: event.lastEventId, data: JSON.parse(event.data) }))
  }, url)
}

const readLog = (page: Page): Promise<Logged[]> => page.evaluate(() => (globalThis as unknown as PageGlobal).feedLog)

type RecordEvent = { type: 'job'; id: string; data: JobFeedData } | { type: 'service'; id: string; data: ServiceFeedData }

function recordEvents(log: readonly Logged[]): RecordEvent[] {
  return log.filter((entry): entry is RecordEvent => entry.type === 'job' || entry.type === 'service')
}

/** What a client that applies every record event in order holds: each job and service by id, removed ones gone. */
function viewOf(log: readonly Logged[]): { jobs: Map<string, JobDetail>; services: Map<string, Service> } {
  const jobs = new Map<string, JobDetail>()
  const services = new Map<string, Service>()
  for (const { type, data } of recordEvents(log)) {
    if (type === 'job') data.job === null ? jobs.delete(data.jobId) : jobs.set(data.jobId, data.job)
    else data.service === null ? services.delete(data.serviceId) : services.set(data.serviceId, data.service)
  }
  return { jobs, services }
}

/** Every job and service as REST serves them, read straight from the indexer (not through the proxy). */
async function readRest(): Promise<{ jobs: Map<string, JobDetail>; services: Map<string, Service> }> {
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${own.server.baseUrl}${path}`)
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`)
    return (await response.json()) as T
  }
  const { jobs } = await get<JobList>('/v1/jobs?limit=100')
  const { services } = await get<ServiceList>('/v1/services')
  const details = await Promise.all(jobs.map(({ jobId }) => get<JobDetail>(`/v1/jobs/${jobId}`)))
  return { jobs: new Map(details.map((job) => [job.jobId, job])), services: new Map(services.map((service) => [service.serviceId, service])) }
}

const jobState = (log: readonly Logged[], jobId: string): string | null | undefined => viewOf(log).jobs.get(jobId)?.stateName

test('default: cut off, then a reorg, the EventSource resumes with its last id: a reorg, the corrected and removed records, and a final view equal to REST', async () => {
  const chain = createPublicClient({ transport: http(own.devnet.rpcUrl) })
  const page = await own.browser.context.newPage()
  await page.setViewportSize({ width: 1280, height: 900 })
  // The explorer through the proxy: its own stream is cut as well, and the page's origin is the proxy's (the CSP's connect-src 'self').
  await page.goto(`${proxy.url}/`)
  await page.locator('[data-feed="live"]').waitFor({ timeout: within })
  await openRecordedStream(page, `${proxy.url}${streamPath}`)
  await expect.poll(() => readLog(page)).toContainEqual({ type: 'open' })

  const serviceId = String(await own.market.registerService())
  const kept = String(await own.market.createJob({ serviceId: BigInt(serviceId) }))
  await expect.poll(async () => jobState(await readLog(page), kept), { timeout: within }).toBe('Pending')
  const snapshot = await own.market.snapshot()
  const snapshotBlock = await own.market.blockNumber()

  // The branch given up: the job settled, and another created.
  await own.market.settleJob(BigInt(kept))
  const orphan = String(await own.market.createJob({ serviceId: BigInt(serviceId) }))
  await expect.poll(async () => [jobState(await readLog(page), kept), jobState(await readLog(page), orphan)], { timeout: within }).toEqual(['Settled', 'Pending'])
  await page.locator(`[data-table="jobs"] tr[data-job-id="${orphan}"]`).waitFor({ timeout: within })
  await saveScreenshot(page, 'reorg-market-before-cut')
  // Both jobs' pages open too, each on its own stream (`jobs=<id>`).
  const jobPages = await Promise.all(
    [kept, orphan].map(async (jobId) => {
      const jobPage = await own.browser.context.newPage()
      await jobPage.goto(`${proxy.url}/jobs/${jobId}`)
      await jobPage.locator('h1 [data-feed="live"]').waitFor({ timeout: within })
      return jobPage
    }),
  )
  const [keptPage, orphanPage] = jobPages as [Page, Page]
  await keptPage.locator('h1 [data-field="state"]', { hasText: 'Settled' }).waitFor({ timeout: within })
  const beforeCut = await readLog(page)
  const lastId = beforeCut.findLast((entry): entry is Extract<Logged, { id: string }> => 'id' in entry)?.id
  expect(lastId).toMatch(/^31337-\d+-[0-9a-f]{16}-(\d+|c|h)$/)

  proxy.cut()
  await expect.poll(async () => (await readLog(page)).length, { timeout: within }).toBeGreaterThan(beforeCut.length)
  const cutAt = Date.now()

  // The chain's branch: back to the snapshot, another service registered, and longer than the branch given up.
  await own.market.revert(snapshot)
  const newServiceId = String(await own.market.registerService())
  await own.market.mine(3)
  await expect
    .poll(async () => {
      const { jobs, services } = await readRest()
      return [jobs.get(kept)?.stateName, jobs.has(orphan), services.has(newServiceId)]
    }, { timeout: within })
    .toEqual(['Pending', false, true])
  // Refused long enough for the browser's own reconnects (every 3 s, `retry:`) to meet a closed door.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, 4_000 - (Date.now() - cutAt))))
  expect(proxy.refused).toBeGreaterThan(0)
  proxy.accept()

  await expect.poll(async () => (await readLog(page)).slice(beforeCut.length).filter(({ type }) => type === 'open').length, { timeout: within }).toBe(1)
  const { jobs: restJobs, services: restServices } = await readRest()
  await expect.poll(async () => viewOf(await readLog(page)), { timeout: within }).toEqual({ jobs: restJobs, services: restServices })
  const log = await readLog(page)

  // It reconnected by itself (never closed), sending the last id it had seen.
  const gap = log.slice(beforeCut.length)
  expect(gap.filter(({ type }) => type === 'error').every((entry) => (entry as { readyState: number }).readyState === 0)).toBe(true)
  expect(await page.evaluate(() => (globalThis as unknown as PageGlobal).feedSource.readyState)).toBe(1)
  const connects = proxy.requests.filter(({ path }) => path === streamPath)
  expect(connects.map(({ headers }) => headers['last-event-id'])).toEqual([undefined, lastId])

  // Resumed: the reorg first, back to a block both branches share, then the corrections.
  const resumed = gap.slice(gap.findIndex(({ type }) => type === 'open') + 1)
  expect(resumed[0]?.type).toBe('reorg')
  const { ancestor, depth } = (resumed[0] as { data: { ancestor: { blockNumber: string; blockHash: string }; depth: number } }).data
  expect(BigInt(ancestor.blockNumber)).toBeLessThanOrEqual(snapshotBlock)
  expect(ancestor.blockHash).toBe((await chain.getBlock({ blockNumber: BigInt(ancestor.blockNumber) })).hash)
  expect(depth).toBe(Number(BigInt(lastId!.split('-')[1]!) - BigInt(ancestor.blockNumber)))
  const corrected = recordEvents(resumed)
  const firstOf = (type: 'job' | 'service', id: string) =>
    corrected.find((event) => event.type === type && (type === 'job' ? (event.data as JobFeedData).jobId : (event.data as ServiceFeedData).serviceId) === id)
  expect(firstOf('job', kept)?.data).toMatchObject({ change: 'updated', job: { stateName: 'Pending' } })
  expect(firstOf('job', orphan)?.data).toMatchObject({ change: 'removed', job: null })
  expect(firstOf('service', newServiceId)?.data).toMatchObject({ change: 'created', service: { serviceId: newServiceId } })

  // No change missed: before the cut, each state the job had, in order; after, the reorg's correction first and REST's state last.
  // In between, the replay may send a job the rollback touched with the given-up branch's state: the
  // indexer holds it so until it reads the job again, and the feed sent it live as the reorg's correction.
  const states = (events: readonly Logged[], jobId: string) =>
    recordEvents(events)
      .filter((event): event is Extract<RecordEvent, { type: 'job' }> => event.type === 'job' && event.data.jobId === jobId)
      .map(({ data }) => data.job?.stateName ?? 'removed')
      .filter((state, index, all) => state !== all[index - 1])
  expect([states(beforeCut, kept), states(beforeCut, orphan)]).toEqual([['Pending', 'Settled'], ['Pending']])
  expect([states(resumed, kept)[0], states(resumed, kept).at(-1)]).toEqual(['Pending', 'Pending'])
  expect([states(resumed, orphan)[0], states(resumed, orphan).at(-1)]).toEqual(['removed', 'removed'])
  expect(resumed.some(({ type }) => type === 'reset')).toBe(false)

  // The explorer's own stream came back too, and its page followed the reorg.
  const keptRow = page.locator(`[data-table="jobs"] tr[data-job-id="${kept}"] [data-field="state"]`)
  await keptRow.filter({ hasText: 'Pending' }).waitFor({ timeout: within })
  await page.locator(`[data-table="jobs"] tr[data-job-id="${orphan}"]`).waitFor({ state: 'detached', timeout: within })
  await page.locator('[data-table="services"] tbody tr').nth(1).waitFor({ timeout: within })
  await page.locator('[data-feed="live"]').waitFor({ timeout: within })
  const { jobs } = (await (await fetch(`${own.server.baseUrl}/v1/stats`)).json()) as { jobs: { total: number } }
  expect(await page.locator('[data-stat="jobs"] .value').innerText()).toBe(String(jobs.total))
  await saveScreenshot(page, 'reorg-market-after')
  // The job pages followed it without a reload: the job back to Pending, the other gone.
  await keptPage.locator('h1 [data-field="state"]', { hasText: 'Pending' }).waitFor({ timeout: within })
  await keptPage.locator('.timeline li[data-event="JobSettled"]').waitFor({ state: 'detached', timeout: within })
  await orphanPage.locator('.problem', { hasText: `Job "${orphan}"` }).waitFor({ timeout: within })
  await keptPage.locator('h1 [data-feed="live"]').waitFor({ timeout: within })
  await saveScreenshot(keptPage, 'reorg-job-back-to-pending')
  await saveScreenshot(orphanPage, 'reorg-job-removed')
  for (const opened of [page, keptPage, orphanPage]) await opened.close()
})

test('cut off with nothing changed, the page polls (and fails) meanwhile; its stream back, it reads again and shows the market', async () => {
  const page = await own.browser.context.newPage()
  await page.goto(`${proxy.url}/`)
  await page.locator('[data-feed="live"]').waitFor({ timeout: within })
  await page.locator('[data-stat="jobs"] .value').waitFor({ timeout: within })
  const streamsBefore = proxy.requests.filter(({ path }) => path === '/v1/events').length

  proxy.cut()
  // After the stream's grace the page polls, through a proxy that drops every connection.
  await page.locator('[data-feed="polling"]').waitFor({ timeout: within })
  await page.locator('.problem', { hasText: 'The indexer could not be reached' }).first().waitFor({ timeout: within })
  await saveScreenshot(page, 'cut-market-polling-failed')
  proxy.accept()

  // The stream comes back, and what failed is read again: the indexer's answers have not changed
  // since the page's last ETags, yet a 304 to them must not keep the errors shown.
  await page.locator('[data-feed="live"]').waitFor({ timeout: within })
  await page.locator('.problem').first().waitFor({ state: 'detached', timeout: within })
  expect(proxy.requests.filter(({ path }) => path === '/v1/events').length).toBeGreaterThan(streamsBefore)
  const { jobs } = (await (await fetch(`${own.server.baseUrl}/v1/stats`)).json()) as { jobs: { total: number } }
  expect(await page.locator('[data-stat="jobs"] .value').innerText()).toBe(String(jobs.total))
  await saveScreenshot(page, 'cut-market-resumed')
  await page.close()
})
