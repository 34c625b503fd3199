import type { Page } from 'playwright-core'
import { type Address, createPublicClient, http, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { type TeeEvidence, TeeEvidenceSchema, type TeeVerdict, TeeVerdictListSchema, type TeeVerdictName, TeeVerdictSchema, teeVerdictNames } from '../../contract/tee.ts'
import { sendProviderRecord } from '../../devnet/tee/sendProviderRecord.ts'
import { fromDcapCollateral } from '../../tee/toDcapCollateral.ts'
import { pinnedClock, readCollateral, readQuote, tdOffsets } from '../tee/support/fixtures.ts'
import { saveScreenshot } from './support/saveScreenshot.ts'
import { serveShellOnChain } from './support/serveShellOnChain.ts'
import { useDevnetExplorer } from './support/useDevnetExplorer.ts'

// Issue 39, end to end: `npm start` in a process of its own (the devnet with its TEE root and
// PCCS, the reference seller serving real quotes, the indexer checking them), Chromium on its
// explorer, nothing between them. The oracle is what `npm start` printed (the seed's plan) and the
// indexer's REST answers read with fetch, never the explorer's code.

const devnet = useDevnetExplorer()

async function getJson(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${devnet.baseUrl}${path}`)
  return { status: response.status, body: await response.json() }
}

const readVerdicts = async (): Promise<TeeVerdict[]> => TeeVerdictListSchema.parse((await getJson('/v1/services/tee')).body).verdicts
const readVerdict = async (serviceId: string): Promise<TeeVerdict> => TeeVerdictSchema.parse((await getJson(`/v1/services/${serviceId}/tee`)).body)
const readEvidence = async (serviceId: string): Promise<TeeEvidence> => TeeEvidenceSchema.parse((await getJson(`/v1/services/${serviceId}/tee/evidence`)).body)

/** The seeded service that npm start printed with this verdict (the first, for `none`). */
function plannedWith(verdict: TeeVerdictName): string {
  const planned = devnet.plan.find((entry) => entry.verdict === verdict)
  if (planned === undefined) throw new Error(`npm start printed no service with verdict ${verdict}.`)
  return planned.serviceId
}

/** The page shows an instant to the second (a `<time datetime>`). */
const toSecond = (iso: string) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString()

/**
 * A service whose evidence could not be had is checked again every minute, and its reasons quote
 * the fresh nonce: the verdict a page shows is the one of two reads around it whose checkedAt it
 * shows (a second check inside a page's read would take a minute).
 */
function readAround(reads: readonly TeeVerdict[], checkedAtShown: string | null): TeeVerdict {
  const read = reads.find(({ checkedAt }) => toSecond(checkedAt) === checkedAtShown)
  expect(read, `a verdict checked at ${checkedAtShown} among ${reads.map(({ checkedAt }) => checkedAt).join(', ')}`).toBeDefined()
  return read!
}

async function open(path: string, { phone = false, chainId }: { phone?: boolean; chainId?: number } = {}): Promise<{ page: Page; requestsBefore: number }> {
  const page = await devnet.browser.context.newPage()
  await page.setViewportSize(phone ? { width: 390, height: 844 } : { width: 1280, height: 900 })
  await page.emulateMedia({ colorScheme: phone ? 'dark' : 'light' })
  if (chainId !== undefined) await serveShellOnChain(page, chainId)
  const requestsBefore = devnet.browser.requests.length
  await page.goto(`${devnet.baseUrl}${path}`)
  return { page, requestsBefore }
}

/** How wide the page is drawn: no wider than its viewport when every long word (a quote's report_data, a URL) wraps. */
const pageWidth = (page: Page) => page.locator('html').evaluate((root) => root.scrollWidth)

/** What the services table shows in each row's TEE cell. */
function readBadges(page: Page) {
  return page.locator('[data-table="services"] tbody tr').evaluateAll((rows) =>
    rows.map((row) => {
      const badge = row.querySelector('[data-field="tee"] a')
      return { serviceId: row.getAttribute('data-service-id'), verdict: badge?.getAttribute('data-tee'), text: badge?.textContent, title: badge?.getAttribute('title'), href: badge?.getAttribute('href') }
    }),
  )
}

test('default: the services table shows each seeded service\'s verdict as npm start printed it and REST serves it, from one read of the list, readable without colour', async () => {
  // The seed plans every verdict the indexer can reach.
  expect(new Set(devnet.plan.map(({ verdict }) => verdict))).toEqual(new Set(teeVerdictNames))
  const before = await readVerdicts()
  expect(before.map(({ serviceId, verdict }) => ({ serviceId, verdict }))).toEqual(devnet.plan.map(({ serviceId, verdict }) => ({ serviceId, verdict })))
  const { page, requestsBefore } = await open('/')
  await page.locator('[data-table="services"] [data-field="tee"] [data-tee]').first().waitFor()
  const shown = await readBadges(page)
  const after = await readVerdicts()
  await saveScreenshot(page, 'tee-market-desktop')
  expect(shown.map(({ serviceId, verdict }) => ({ serviceId, verdict }))).toEqual(devnet.plan.map(({ serviceId, verdict }) => ({ serviceId, verdict })))
  for (const badge of shown) {
    expect(badge.href).toBe(`/services/${badge.serviceId}`)
    // The word is there for whoever cannot tell the colours apart, beside a sign of its own.
    expect(badge.text).toMatch(new RegExp(`^. ${badge.verdict}$`))
    // The verdict's own sentence, as REST served it just before or just after the page read it.
    const summaries = [before, after].map((reads) => reads.find(({ serviceId }) => serviceId === badge.serviceId)!.summary)
    expect(summaries, `service ${badge.serviceId}`).toContain(badge.title)
  }
  const signs = await page.locator('[data-field="tee"] [data-tee] span[aria-hidden]').allInnerTexts()
  expect(new Set(signs).size).toBe(teeVerdictNames.length)
  const perRow = devnet.browser.requests.slice(requestsBefore).filter((url) => /\/v1\/services\/[^/]+\/tee/.test(url))
  expect(perRow, 'no read per row').toEqual([])
  await page.close()

  const phone = await open('/', { phone: true })
  await phone.page.locator('[data-table="services"] [data-field="tee"] [data-tee]').first().waitFor()
  expect((await readBadges(phone.page)).map(({ verdict }) => verdict)).toEqual(devnet.plan.map(({ verdict }) => verdict))
  await saveScreenshot(phone.page, 'tee-market-phone')
  await phone.page.close()
})

/** The TEE section of a service page as a reader sees it. */
async function readTeeSection(page: Page) {
  const section = page.locator('section[aria-label="TEE"]')
  const text = (field: string) => section.locator(`[data-field="${field}"]`).first().innerText()
  const measured = (await section.locator('[data-register]').count()) > 0
  const recorded = (await section.locator('[data-field="tee-provider-url"]').count()) > 0
  return {
    verdict: await section.locator('[data-field="tee-verdict"] [data-tee]').getAttribute('data-tee'),
    summary: await text('tee-summary'),
    checks: await section
      .locator('[data-table="tee-checks"] tbody tr')
      .evaluateAll((rows) => rows.map((row) => ({ name: row.getAttribute('data-check'), status: row.getAttribute('data-status'), reason: row.querySelector('[data-field="reason"]')?.textContent }))),
    checkedAt: await section.locator('[data-field="tee-checked"] time').getAttribute('datetime'),
    expiresAt: await section.locator('[data-field="tee-expires"] time').getAttribute('datetime'),
    signingAddress: await text('tee-signing-address'),
    tcbStatus: await text('tee-tcb'),
    advisories: await text('tee-advisories'),
    measurements: measured
      ? Object.fromEntries(await section.locator('[data-register]').evaluateAll((cells) => cells.map((cell) => [cell.getAttribute('data-register'), cell.textContent])))
      : await text('tee-measurements'),
    provider: recorded
      ? { url: await text('tee-provider-url'), model: await text('tee-provider-model'), acknowledged: await text('tee-provider-acknowledged') }
      : await text('tee-provider'),
  }
}

/** What a service page should show for a verdict REST serves, written from the verdict's fields. */
function expectedSection(verdict: TeeVerdict): Awaited<ReturnType<typeof readTeeSection>> {
  const { measurements, provider } = verdict
  return {
    verdict: verdict.verdict,
    summary: verdict.summary,
    checks: verdict.checks.map(({ name, status, reason }) => ({ name, status, reason })),
    checkedAt: toSecond(verdict.checkedAt),
    expiresAt: toSecond(verdict.expiresAt),
    signingAddress: verdict.signingAddress,
    tcbStatus: verdict.tcbStatus ?? 'unknown',
    advisories: verdict.advisoryIds.length === 0 ? 'none' : verdict.advisoryIds.join(', '),
    measurements: measurements === null ? 'None: no quote verified.' : { ...measurements, composeHash: measurements.composeHash ?? 'none could be read' },
    provider:
      provider === null
        ? 'The provider has no record on 0G.'
        : { url: provider.url, model: provider.model, acknowledged: provider.teeSignerAcknowledged ? 'yes' : 'no' },
  }
}

test('each seeded service\'s page shows its verdict as npm start printed it, with the summary, every check and reason, the times, measurements and 0G record REST serves', async () => {
  for (const { serviceId, verdict: planned } of devnet.plan) {
    const before = await readVerdict(serviceId)
    const { page } = await open(`/services/${serviceId}`)
    await page.locator('section[aria-label="TEE"] [data-table="tee-checks"] tbody tr').first().waitFor()
    const shown = await readTeeSection(page)
    const served = readAround([before, await readVerdict(serviceId)], shown.checkedAt)
    await saveScreenshot(page, `tee-service-${serviceId}-${planned}-desktop`)
    expect(shown.verdict, `service ${serviceId}`).toBe(planned)
    expect(shown, `service ${serviceId}`).toEqual(expectedSection(served))
    expect(await pageWidth(page), `service ${serviceId}`).toBeLessThanOrEqual(1280)
    await page.close()
  }
})

describe('Verify in your browser', () => {
  /** Opens a service page, clicks once everything else was read, and waits for the browser's own outcome; returns what the click asked the server for. */
  async function verifyOnPage(serviceId: string, name: string, { chainId, phone = false }: { chainId?: number; phone?: boolean } = {}): Promise<{ page: Page; asked: string[]; askedBefore: string[] }> {
    const { page, requestsBefore } = await open(`/services/${serviceId}`, { chainId, phone })
    await page.locator('[data-table="jobs"] tbody tr').first().waitFor()
    await page.locator('.timeline li').first().waitFor()
    await page.locator('section[aria-label="TEE"] [data-table="tee-checks"]').waitFor()
    const clickedAt = devnet.browser.requests.length
    await page.locator('[data-action="verify-tee"]').click()
    await page.locator('[data-tee-verify]').waitFor({ timeout: 60_000 })
    await saveScreenshot(page, `tee-verify-${name}-${phone ? 'phone' : 'desktop'}`)
    const paths = (urls: string[]) => urls.map((url) => new URL(url).pathname)
    return { page, asked: paths(devnet.browser.requests.slice(clickedAt)), askedBefore: paths(devnet.browser.requests.slice(requestsBefore, clickedAt)) }
  }

  const step = (page: Page, name: string) => page.locator('[data-table="tee-checks"]').last().locator(`tr[data-check="${name}"]`)
  const stepsOf = (page: Page) =>
    page
      .locator('[data-table="tee-checks"]')
      .last()
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => ({ name: row.getAttribute('data-check')!, status: row.getAttribute('data-status')!, reason: row.querySelector('[data-field="reason"]')?.textContent })))
  /** The indexer's check of the same name, for each step the browser shares with it. */
  const indexerStatus = (verdict: TeeVerdict, name: string) => verdict.checks.find((check) => check.name === name)?.status

  test('the verified service: the browser verifies the evidence REST serves, loading its verifier on the click, and reaches the indexer\'s verdict', async () => {
    const serviceId = plannedWith('verified')
    const { page, asked, askedBefore } = await verifyOnPage(serviceId, 'verified')
    const [verdict, evidence] = [await readVerdict(serviceId), await readEvidence(serviceId)]
    expect(verdict.verdict).toBe('verified')
    // explorer-tee.js (dcap-qvl) only on the click, with the evidence; nothing else, nowhere else.
    expect(askedBefore).not.toContain('/explorer/explorer-tee.js')
    expect(new Set(asked)).toEqual(new Set([`/v1/services/${serviceId}/tee/evidence`, '/explorer/explorer-tee.js']))
    expect(await page.locator('[data-tee-verify]').getAttribute('data-tee-verify')).toBe('true')
    expect(await page.locator('[data-field="tee-browser-outcome"] .badge').innerText()).toBe('✓ verified in your browser')
    // As of the time the indexer fetched the evidence it serves: the page verified that evidence.
    expect(await page.locator('[data-field="tee-browser-outcome"]').innerText()).toContain(`(${evidence.fetchedAt}, when the evidence was fetched)`)
    expect(evidence.rootCa, "the devnet's own root").not.toBeNull()
    const steps = await stepsOf(page)
    expect(steps.map(({ name, status }) => [name, status])).toEqual([['root', 'pass'], ['quote', 'pass'], ['binding', 'pass']])
    expect(steps[0]!.reason).toBe("The devnet's own root, trusted on the devnet's chain.")
    expect(steps[1]!.reason).toContain(`TCB ${verdict.tcbStatus}`)
    expect(steps[2]!.reason).toBe(`report_data names ${evidence.signingAddress} (layout address-nonce, with the nonce sent).`)
    for (const { name, status } of steps.slice(1)) expect(status, name).toBe(indexerStatus(verdict, name))
    await page.close()
  })

  test('the failed service: the browser finds in the evidence REST serves the failure the indexer found, and says it', async () => {
    const serviceId = plannedWith('failed')
    const { page } = await verifyOnPage(serviceId, 'failed')
    const [verdict, evidence, verified] = [await readVerdict(serviceId), await readEvidence(serviceId), await readVerdict(plannedWith('verified'))]
    expect(verdict.verdict).toBe('failed')
    expect(await page.locator('[data-tee-verify]').getAttribute('data-tee-verify')).toBe('false')
    expect(await page.locator('[data-field="tee-browser-outcome"] .badge').innerText()).toBe('✗ not verified in your browser')
    const steps = await stepsOf(page)
    expect(steps.map(({ name, status }) => [name, status])).toEqual([['root', 'pass'], ['quote', 'pass'], ['binding', 'fail']])
    for (const { name, status } of steps.slice(1)) expect(status, name).toBe(indexerStatus(verdict, name))
    // The printed plan: the quote binds the verified service's key (dstack's layout: address,
    // 12 zero bytes, the nonce the indexer sent), not this service's.
    const reportData = `0x${verified.signingAddress.slice(2).toLowerCase()}${'00'.repeat(12)}${evidence.nonce!.slice(2)}`
    const reason = await page.locator('[data-field="tee-browser-reason"]').innerText()
    expect(reason).toContain(`does not name signing address "${evidence.signingAddress}"`)
    expect(reason).toContain(`report_data is ${reportData}`)
    expect(steps[2]!.reason).toBe(reason)
    expect(reason).toBe(verdict.checks.find(({ name }) => name === 'binding')!.reason)
    expect(await pageWidth(page)).toBeLessThanOrEqual(1280)
    await page.close()
    // The long report_data wraps: the phone's page is no wider than the phone.
    const phone = await verifyOnPage(serviceId, 'failed', { phone: true })
    expect(await pageWidth(phone.page)).toBeLessThanOrEqual(390)
    await phone.page.close()
  })

  test('the unreachable service, whose evidence REST does not have (404): the page says there is nothing to verify, the verdict beside it unchanged', async () => {
    const serviceId = plannedWith('unreachable')
    const missing = await getJson(`/v1/services/${serviceId}/tee/evidence`)
    expect(missing.status).toBe(404)
    const { error } = missing.body as { error: { code: string; message: string } }
    expect(error.code).toBe('tee_evidence_not_found')
    const { page } = await verifyOnPage(serviceId, 'no-evidence')
    expect(await page.locator('[data-tee-verify]').getAttribute('data-tee-verify')).toBe('error')
    expect(await page.locator('[data-field="tee-browser-outcome"]').innerText()).toBe('✗ not verified in your browser')
    expect(await page.locator('[data-field="tee-browser-reason"]').innerText()).toBe(`There is no evidence to verify: ${error.message}`)
    expect(await page.locator('[role="alert"]').count()).toBe(1)
    // No browser checks were listed, and the indexer's verdict still stands above.
    expect(await page.locator('[data-table="tee-checks"]').count()).toBe(1)
    expect(await page.locator('[data-field="tee-verdict"] [data-tee]').getAttribute('data-tee')).toBe('unreachable')
    await page.close()
  })

  test("the verified service's evidence, on an explorer of another chain: the devnet's root is not trusted there", async () => {
    const { page } = await verifyOnPage(plannedWith('verified'), 'devnet-root-elsewhere', { chainId: 16661 })
    expect(await page.locator('[data-tee-verify]').getAttribute('data-tee-verify')).toBe('false')
    expect(await step(page, 'root').getAttribute('data-status')).toBe('fail')
    expect(await page.locator('[data-field="tee-browser-reason"]').innerText()).toContain("trusted on the devnet's chain only")
    expect(await step(page, 'quote').getAttribute('data-status')).toBe('skip')
    await page.close()
  })
})

describe("explorer-tee.js in Chromium, on Intel's real sample quote (evidence no devnet serves)", () => {
  /**
   * Loads the verifier the page loads on a click, as a module of the explorer's origin, and runs it
   * on the evidence. An expression, not a function: vitest would rewrite a function's import().
   */
  async function verifyInChromium(evidence: TeeEvidence, signingAddress: string): Promise<{ ok: boolean; steps: { name: string; status: string; reason: string }[] }> {
    const { page } = await open('/')
    try {
      const parameters = JSON.stringify({ evidence, signingAddress, chainId: 16661 })
      return await page.evaluate(`import('/explorer/explorer-tee.js').then(({ verifyTeeEvidence }) => { const { ok, steps } = verifyTeeEvidence(${parameters}); return { ok, steps } })`)
    } finally {
      await page.close()
    }
  }

  const sampleEvidence = (quote: Uint8Array): TeeEvidence => ({
    serviceId: '1',
    signingAddress: '0x0000000000000000000000000000000000000001',
    fetchedAt: pinnedClock.toISOString(),
    reportUrl: 'https://provider.example/v1/quote',
    nonce: null,
    quote: `0x${Buffer.from(quote).toString('hex')}`,
    collateral: fromDcapCollateral(readCollateral('tdx_quote')),
    eventLog: null,
    appCompose: null,
    rootCa: null,
  })

  test('verifies to Intel\'s root at its pinned time; its report_data names no key of ours', async () => {
    const result = await verifyInChromium(sampleEvidence(readQuote('tdx_quote')), '0x0000000000000000000000000000000000000001')
    expect(result.steps.map(({ name, status }) => [name, status])).toEqual([['root', 'pass'], ['quote', 'pass'], ['binding', 'fail']])
    expect(result.steps[1]!.reason).toContain('TCB UpToDate')
    expect(result.ok).toBe(false)
  })

  test('one flipped bit of MRTD fails the quote, saying why', async () => {
    const quote = readQuote('tdx_quote')
    quote[tdOffsets.mrTd]! ^= 0x01
    const result = await verifyInChromium(sampleEvidence(quote), '0x0000000000000000000000000000000000000001')
    expect(result.steps.map(({ name, status }) => [name, status])).toEqual([['root', 'pass'], ['quote', 'fail'], ['binding', 'skip']])
    expect(result.steps[1]!.reason).toBe(
      "The TDX quote does not verify: ISV enclave report signature is invalid. A quote signed through Intel's PCK chain to the trusted root is required.",
    )
  })
})

describe("a provider's hostile 0G record, written after the seed", () => {
  /** A provider's strings are anyone's text: markup, a newline and a right-to-left override. */
  const hostileUrl = 'javascript:alert(1)//<b>x</b>\n\u202ehttps://provider.example'
  const hostileModel = '<img src=x onerror=alert(1)>\n\u202eqwen'
  /** What a reader must see, written out by hand: the markup as text, the newline and override as escapes. */
  const shownAs = (text: string) => text.replaceAll('\n', '\\n').replaceAll('\u202e', '\\u202e')

  test('is text on the service page: its URL never a link, no markup an element, every control character an escape, in the record, the summary and the reasons', async () => {
    const serviceId = plannedWith('none')
    const { providerAddress } = (await getJson(`/v1/services/${serviceId}`)).body as { providerAddress: Address }
    const client = createPublicClient({ transport: http(devnet.rpcUrl) })
    const record = { serviceType: 'chatbot', url: hostileUrl, model: hostileModel, verifiability: 'TeeML', inputPrice: 1n, outputPrice: 1n, additionalInfo: '{}', teeSignerAddress: zeroAddress }
    await sendProviderRecord(client, { inferenceServing: devnet.deployment.tee!.inferenceServing, provider: providerAddress, record })
    // The indexer follows the record's event and checks the service again.
    await expect.poll(async () => (await readVerdict(serviceId)).provider?.url, { timeout: 120_000 }).toBe(hostileUrl)
    const dialogs: string[] = []
    const { page } = await open(`/services/${serviceId}`)
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await page.locator('[data-field="tee-provider-url"]').waitFor()
    const served = await readVerdict(serviceId)
    await saveScreenshot(page, 'tee-service-hostile-record-desktop')
    const expected = expectedSection(served)
    expect(await readTeeSection(page)).toEqual({
      ...expected,
      summary: shownAs(expected.summary),
      checks: expected.checks.map((check) => ({ ...check, reason: shownAs(check.reason) })),
      provider: { url: shownAs(hostileUrl), model: shownAs(hostileModel), acknowledged: 'no' },
    })
    expect(await page.locator('[data-field="tee-provider-url"]').locator('a, b, img').count()).toBe(0)
    expect(await page.locator('section[aria-label="TEE"] img, section[aria-label="TEE"] b').count()).toBe(0)
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0)
    expect(dialogs).toEqual([])
    expect(await pageWidth(page)).toBeLessThanOrEqual(1280)
    await page.close()
  })
})
