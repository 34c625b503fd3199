import type { Page, Request } from 'playwright-core'
import { expect, test } from 'vitest'
import { saveScreenshot } from './support/saveScreenshot.ts'
import { useOwnMarket } from './support/useOwnMarket.ts'

/**
 * How long to wait for what the pages show. The test server's indexer polls the chain every
 * 0.25 s and the stream sends what it applies, so it comes within seconds; the deadline is for a
 * slow host's node, not a speed target.
 */
const within = 60_000

// A chain of its own: these tests write to it.
const own = useOwnMarket()

/** The GETs a page made of the URLs `pattern` matches (path and query), and how many have not answered yet. */
type Reads = { readonly made: number; readonly pending: number }

function watchReads(page: Page, pattern: RegExp): Reads {
  let made = 0
  let answered = 0
  const matches = (url: string): boolean => pattern.test(url.slice(new URL(url).origin.length))
  page.on('request', (request) => {
    if (request.method() === 'GET' && matches(request.url())) made += 1
  })
  const answer = (request: Request): void => {
    if (request.method() === 'GET' && matches(request.url())) answered += 1
  }
  page.on('requestfinished', answer)
  page.on('requestfailed', answer)
  return {
    get made() {
      return made
    },
    get pending() {
      return made - answered
    },
  }
}

/**
 * How many reads a page made before going quiet: at least two (one to show the page, one when its
 * stream opened: what changed in between is not replayed), more on a slow host, where a stream not
 * open within the page's 5 s grace lets the page poll meanwhile. Later counts are against this one.
 */
async function readsOnceQuiet(reads: Reads): Promise<number> {
  await expect.poll(() => reads.pending === 0 && reads.made >= 2).toBe(true)
  return reads.made
}

/** The streams a page opened (`GET /v1/events` by an EventSource), by their path and query. */
function watchStreams(page: Page): string[] {
  const streams: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'eventsource') streams.push(request.url().slice(new URL(request.url()).origin.length))
  })
  return streams
}

/** A new job (Pending) of a new service. */
async function newJob(): Promise<string> {
  return String(await own.market.createJob({ serviceId: await own.market.registerService() }))
}

/** Opens a job's page, watching its reads of the job and its streams, once it shows the job Pending and its data's source as `feed`. */
async function openJobPage(jobId: string, feed: 'live' | 'polling'): Promise<{ page: Page; reads: Reads; streams: string[] }> {
  const page = await own.browser.context.newPage()
  const reads = watchReads(page, new RegExp(`^/v1/jobs/${jobId}$`))
  const streams = watchStreams(page)
  await page.goto(`${own.server.baseUrl}/jobs/${jobId}`)
  await page.locator('h1 [data-field="state"]', { hasText: 'Pending' }).waitFor({ timeout: within })
  await page.locator(`h1 [data-feed="${feed}"]`).waitFor({ timeout: within })
  return { page, reads, streams }
}

test('default: a settlement made while the pages are open reaches the job and market pages through their streams, no job read polled', async () => {
  const jobId = await newJob()
  const { page: jobPage, reads: jobReads, streams: jobStreams } = await openJobPage(jobId, 'live')

  const marketPage = await own.browser.context.newPage()
  const listReads = watchReads(marketPage, /^\/v1\/jobs\?/)
  const statsReads = watchReads(marketPage, /^\/v1\/stats$/)
  const marketJobReads = watchReads(marketPage, /^\/v1\/jobs\/[^/?]+$/)
  const marketStreams = watchStreams(marketPage)
  await marketPage.goto(`${own.server.baseUrl}/`)
  const row = marketPage.locator(`[data-table="jobs"] tr[data-job-id="${jobId}"] [data-field="state"]`)
  await row.filter({ hasText: 'Pending' }).waitFor({ timeout: within })
  await marketPage.locator('[data-feed="live"]').waitFor({ timeout: within })
  const settledBefore = Number(await marketPage.locator('[data-stat="settled"] .value').innerText())

  const [jobReadsLive, listReadsLive, statsReadsLive] = [await readsOnceQuiet(jobReads), await readsOnceQuiet(listReads), await readsOnceQuiet(statsReads)]

  await own.market.settleJob(BigInt(jobId))
  await jobPage.locator('h1 [data-field="state"]', { hasText: 'Settled' }).waitFor({ timeout: within })
  await jobPage.locator('.timeline li[data-event="JobSettled"]').waitFor({ timeout: within })
  await row.filter({ hasText: 'Settled' }).waitFor({ timeout: within })
  // The counters are in no event: the job's event made the page read them again.
  await marketPage.locator('[data-stat="settled"] .value', { hasText: String(settledBefore + 1) }).waitFor({ timeout: within })
  expect(statsReads.made).toBe(statsReadsLive + 1)

  // The job came whole in its event: not read again, neither on its page nor in the market's list.
  expect(jobReads.made).toBe(jobReadsLive)
  expect(listReads.made).toBe(listReadsLive)
  expect(marketJobReads.made).toBe(0)
  // One stream per page, with the page's filters, up all along.
  expect(jobStreams).toEqual([`/v1/events?jobs=${jobId}`])
  expect(marketStreams).toEqual(['/v1/events'])
  expect(await jobPage.locator('h1 [data-feed]').getAttribute('data-feed')).toBe('live')

  // The settled job now carries its attestation, and the browser check accepts it.
  await jobPage.locator('[data-action="verify"]').click()
  await jobPage.locator('[data-verify="true"]').waitFor()
  await saveScreenshot(jobPage, 'job-live-settled-desktop')
  await saveScreenshot(marketPage, 'market-live-settled-desktop')
  await jobPage.close()
  await marketPage.close()
})

test('the service and seller pages add a new job and follow its settlement from their streams', async () => {
  const serviceId = String(await own.market.registerService())
  // Once indexed: the seller's address is the service's as REST has it.
  const readSeller = async (): Promise<string | undefined> => ((await (await fetch(`${own.server.baseUrl}/v1/services/${serviceId}`)).json()) as { seller?: string }).seller
  await expect.poll(readSeller, { timeout: within }).toMatch(/^0x/)
  const seller = (await readSeller()) as string
  const servicePage = await own.browser.context.newPage()
  const serviceStreams = watchStreams(servicePage)
  await servicePage.goto(`${own.server.baseUrl}/services/${serviceId}`)
  const sellerPage = await own.browser.context.newPage()
  const sellerReads = watchReads(sellerPage, /^\/v1\/sellers\//)
  const sellerStreams = watchStreams(sellerPage)
  await sellerPage.goto(`${own.server.baseUrl}/sellers/${seller}`)
  for (const page of [servicePage, sellerPage]) await page.locator('h2 [data-feed="live"]').waitFor({ timeout: within })
  await servicePage.locator('[data-empty="Jobs of the service"]').waitFor({ timeout: within })
  const sellerReadsLive = await readsOnceQuiet(sellerReads)
  const card = (name: string) => sellerPage.locator(`[data-stat="${name}"] .value`)
  const [jobsBefore, settledBefore] = [Number(await card('jobs').innerText()), Number(await card('settled').innerText())]

  const jobId = String(await own.market.createJob({ serviceId: BigInt(serviceId) }))
  const rows = [servicePage, sellerPage].map((page) => page.locator(`[data-table="jobs"] tr[data-job-id="${jobId}"] [data-field="state"]`))
  for (const row of rows) await row.filter({ hasText: 'Pending' }).waitFor({ timeout: within })
  await card('jobs').filter({ hasText: String(jobsBefore + 1) }).waitFor({ timeout: within })
  await own.market.settleJob(BigInt(jobId))
  for (const row of rows) await row.filter({ hasText: 'Settled' }).waitFor({ timeout: within })
  await card('settled').filter({ hasText: String(settledBefore + 1) }).waitFor({ timeout: within })

  // The seller's record took both jobs' events as they came: not read again.
  expect(sellerReads.made).toBe(sellerReadsLive)
  expect(serviceStreams).toEqual([`/v1/events?serviceId=${serviceId}`])
  expect(sellerStreams).toEqual([`/v1/events?seller=${seller}`])
  await saveScreenshot(servicePage, 'service-live-settled-desktop')
  await saveScreenshot(sellerPage, 'seller-live-settled-desktop')
  await servicePage.close()
  await sellerPage.close()
})

/**
 * Opens streams from this process (the browser's address too) until the indexer refuses one: the
 * per-client cap is then full. `held`: how many it took.
 */
async function fillClientStreams(baseUrl: string): Promise<{ held: number; refusal: Response; release: () => void }> {
  const holder = new AbortController()
  for (let held = 0; ; held++) {
    const response = await fetch(`${baseUrl}/v1/events`, { signal: holder.signal })
    if (response.status !== 200) return { held, refusal: response, release: () => holder.abort() }
  }
}

/** What the page script uses of the browser's document (the test project's tsconfig has no DOM lib). */
type PageDocument = { document: { dispatchEvent(event: unknown): boolean }; Event: new (type: string) => unknown }

/** Hides or shows the page as a browser does a background tab: `document.hidden` and a `visibilitychange` event. */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    const { document, Event } = globalThis as unknown as PageDocument
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden })
    document.dispatchEvent(new Event('visibilitychange'))
  }, hidden)
}

test('a hidden tab gives its stream back and reads nothing; shown again, it opens a stream and shows what changed meanwhile', async () => {
  const jobId = await newJob()
  const { page, reads, streams } = await openJobPage(jobId, 'live')
  const readsLive = await readsOnceQuiet(reads)

  await setHidden(page, true)
  await page.locator('h1 [data-feed="connecting"]').waitFor({ timeout: within })
  // Its stream closed, this client's every stream is free again.
  await expect
    .poll(async () => {
      const { held, release } = await fillClientStreams(own.server.baseUrl)
      release()
      return held
    }, { timeout: within })
    .toBe(8)
  await own.market.settleJob(BigInt(jobId))
  await expect.poll(async () => ((await (await fetch(`${own.server.baseUrl}/v1/jobs/${jobId}`)).json()) as { stateName: string }).stateName).toBe('Settled')
  await new Promise((resolve) => setTimeout(resolve, 3_000))
  expect(reads.made, 'a hidden tab does not poll').toBe(readsLive)

  await setHidden(page, false)
  await page.locator('h1 [data-field="state"]', { hasText: 'Settled' }).waitFor({ timeout: within })
  await page.locator('h1 [data-feed="live"]').waitFor({ timeout: within })
  expect(streams).toEqual([`/v1/events?jobs=${jobId}`, `/v1/events?jobs=${jobId}`])
  await page.close()
})

test('a page whose stream is refused (the client holds its 8 streams) polls meanwhile, then takes a stream once one is free', async () => {
  const jobId = await newJob()
  const { refusal, release } = await fillClientStreams(own.server.baseUrl)
  try {
    expect(refusal.status).toBe(429)
    expect(refusal.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/)
    expect(((await refusal.json()) as { error: { code: string } }).error.code).toBe('too_many_streams')

    const { page, reads, streams } = await openJobPage(jobId, 'polling')
    await saveScreenshot(page, 'job-live-polling-desktop')

    // Refused, the page reads the job every 2 s as it did before the feed, and sees the settlement.
    const polledBefore = reads.made
    await own.market.settleJob(BigInt(jobId))
    await page.locator('h1 [data-field="state"]', { hasText: 'Settled' }).waitFor({ timeout: within })
    expect(reads.made).toBeGreaterThan(polledBefore)

    // A stream free again, the page's next try (it backs off) takes it and polling stops.
    release()
    await page.locator('h1 [data-feed="live"]').waitFor({ timeout: within })
    expect(streams.length).toBeGreaterThan(1)
    await expect.poll(() => reads.pending).toBe(0)
    const readsWhenLive = reads.made
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    expect(reads.made, 'no polling with the stream up').toBe(readsWhenLive)
    await page.close()
  } finally {
    release()
  }
})
