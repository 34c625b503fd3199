import type { Page } from 'playwright-core'
import { type Address, type Hex, bytesToHex, hexToBytes } from 'viem'
import { describe, expect, test } from 'vitest'
import type { Collateral } from '@phala/dcap-qvl'
import type { Service } from '../../contract/service.ts'
import { type TeeCheck, type TeeEvidence, type TeeVerdict, type TeeVerdictName, teeVerdictNames } from '../../contract/tee.ts'
import { createTeeRoot } from '../../devnet/tee/createTeeRoot.ts'
import { makeTdxQuote } from '../../devnet/tee/makeTdxQuote.ts'
import { pinnedClock, readCollateral, readQuote, tdOffsets } from '../tee/support/fixtures.ts'
import { saveScreenshot } from './support/saveScreenshot.ts'
import { serveShellOnChain } from './support/serveShellOnChain.ts'
import { type TeeAnswers, serveTeeAnswers } from './support/serveTeeAnswers.ts'
import { useExplorer } from './support/useExplorer.ts'

// Issue 39: the explorer shows each service's TEE verdict and re-verifies its evidence in the
// browser. The indexer does not serve the TEE routes yet, so serveTeeAnswers answers them in the
// browser; everything else comes from the real indexer over the seeded devnet.

const explorer = useExplorer()

/** A provider's strings are anyone's text: markup, a newline and a right-to-left override. */
const hostileUrl = 'javascript:alert(1)//<b>x</b>\n\u202ehttps://provider.example'
const hostileUrlShown = 'javascript:alert(1)//<b>x</b>\\n\\u202ehttps://provider.example'

const checksOf: Record<TeeVerdictName, TeeCheck[]> = {
  verified: [
    { name: 'provider', status: 'pass', reason: 'The provider has a record on 0G.' },
    { name: 'quote', status: 'pass', reason: "A TDX quote (version 4, not a debug TD) signed through Intel's PCK chain to the trusted root, with fresh collateral." },
    { name: 'tcb', status: 'pass', reason: 'TCB status UpToDate is accepted.' },
    { name: 'binding', status: 'pass', reason: 'report_data names the signing address (address-nonce, with the nonce sent).' },
    { name: 'appraisal', status: 'skip', reason: 'Measured, not appraised: no allow-list is configured.' },
  ],
  acknowledged: [{ name: 'quote', status: 'skip', reason: 'No collateral could be fetched.' }],
  failed: [{ name: 'binding', status: 'fail', reason: `report_data does not name the signing address; the provider at ${hostileUrl} served another key.` }],
  unreachable: [{ name: 'provider', status: 'skip', reason: 'The attestation report could not be fetched.' }],
  none: [{ name: 'provider', status: 'fail', reason: 'The provider has no record on 0G.' }],
}

const register = (byte: string) => `0x${byte.repeat(48)}` as Hex

function verdictOf(service: Service, verdict: TeeVerdictName): TeeVerdict {
  const measured = verdict === 'verified' || verdict === 'failed'
  return {
    serviceId: service.serviceId,
    signingAddress: service.signingAddress,
    verdict,
    summary: `Service ${service.serviceId} is ${verdict}: ${checksOf[verdict][0]!.reason}`,
    checks: checksOf[verdict],
    checkedAt: '2026-11-27T10:00:00Z',
    expiresAt: '2026-11-27T11:00:00Z',
    measurements: measured
      ? { mrTd: register('a1'), rtmr0: register('b0'), rtmr1: register('b1'), rtmr2: register('b2'), rtmr3: register('b3'), mrConfigId: register('00'), composeHash: `0x${'c0'.repeat(32)}` }
      : null,
    tcbStatus: measured ? 'UpToDate' : null,
    advisoryIds: measured ? ['INTEL-SA-00837'] : [],
    provider: verdict === 'none' ? null : { url: hostileUrl, model: 'qwen-2.5-7b', verifiability: 'TeeML', targetSeparated: false, teeSignerAddress: service.signingAddress as Address, teeSignerAcknowledged: verdict === 'acknowledged' },
  }
}

async function services(): Promise<Service[]> {
  const answer = await explorer.client.services.listServices()
  if (answer.status !== 200) throw new Error(`services: ${answer.status}`)
  return answer.body.services
}

/** The evidence as the indexer publishes it: dcap-qvl's collateral with its byte fields as 0x hex. */
function evidenceOf({ service, quote, collateral, fetchedAt, rootCa }: { service: Service; quote: Uint8Array; collateral: Collateral; fetchedAt: Date; rootCa: Uint8Array | null }): TeeEvidence {
  const hex = (value: string | number[]) => (typeof value === 'string' ? `0x${value}` : bytesToHex(Uint8Array.from(value))) as Hex
  return {
    serviceId: service.serviceId,
    signingAddress: service.signingAddress,
    fetchedAt: fetchedAt.toISOString(),
    reportUrl: 'https://provider.example/v1/proxy/attestation/report',
    nonce: null,
    quote: bytesToHex(quote),
    collateral: {
      ...collateral,
      root_ca_crl: hex(collateral.root_ca_crl),
      pck_crl: hex(collateral.pck_crl),
      tcb_info_signature: hex(collateral.tcb_info_signature),
      qe_identity_signature: hex(collateral.qe_identity_signature),
    },
    eventLog: null,
    appCompose: null,
    rootCa: rootCa === null ? null : bytesToHex(rootCa),
  }
}

async function open(path: string, answers: TeeAnswers, { chainId, phone = false }: { chainId?: number; phone?: boolean } = {}): Promise<Page> {
  const page = await explorer.browser.context.newPage()
  await page.setViewportSize(phone ? { width: 390, height: 844 } : { width: 1280, height: 900 })
  await page.emulateMedia({ colorScheme: phone ? 'dark' : 'light' })
  await serveTeeAnswers(page, answers)
  if (chainId !== undefined) await serveShellOnChain(page, chainId)
  await page.goto(`${explorer.server.baseUrl}${path}`)
  return page
}

test('default: each row of the services table shows its verdict from one read of the list, readable without colour', async () => {
  const all = await services()
  // Every verdict name once, and the last service not checked yet.
  const verdicts = all.slice(0, -1).map((service, index) => verdictOf(service, teeVerdictNames[index % teeVerdictNames.length]!))
  expect(verdicts.length).toBeGreaterThanOrEqual(teeVerdictNames.length)
  const page = await open('/', { verdicts, evidence: {} })
  await page.locator('[data-table="services"] [data-field="tee"] [data-tee]').first().waitFor()
  await saveScreenshot(page, 'tee-market-desktop')
  for (const service of all) {
    const badge = page.locator(`[data-table="services"] tr[data-service-id="${service.serviceId}"] [data-field="tee"] a`)
    const verdict = verdicts.find(({ serviceId }) => serviceId === service.serviceId)
    expect(await badge.getAttribute('href')).toBe(`/services/${service.serviceId}`)
    if (verdict === undefined) {
      expect(await badge.innerText()).toBe('… checking')
      continue
    }
    expect(await badge.getAttribute('data-tee')).toBe(verdict.verdict)
    // The word is there for whoever cannot tell the colours apart, beside a sign of its own.
    expect(await badge.innerText()).toMatch(new RegExp(`^. ${verdict.verdict}$`))
    expect(await badge.getAttribute('title')).toBe(verdict.summary)
  }
  const signs = await page.locator('[data-field="tee"] [data-tee] span[aria-hidden]').allInnerTexts()
  expect(new Set(signs).size).toBe(teeVerdictNames.length)
  const requests = explorer.browser.requests.filter((url) => /\/v1\/services\/[^/]+\/tee/.test(url))
  expect(requests, 'no read per row').toEqual([])
  await page.close()
  const phone = await open('/', { verdicts, evidence: {} }, { phone: true })
  await phone.locator('[data-table="services"] [data-field="tee"] [data-tee]').first().waitFor()
  await saveScreenshot(phone, 'tee-market-phone')
  await phone.close()
})

test('a service page shows the verdict, each check with its reason, the times, the measurements, TCB and the 0G record, its text inert', async () => {
  const [service] = await services()
  const verdict = verdictOf(service!, 'failed')
  const page = await open(`/services/${service!.serviceId}`, { verdicts: [verdict], evidence: {} })
  await page.locator('[data-table="tee-checks"] tbody tr').first().waitFor()
  await saveScreenshot(page, 'tee-service-failed-desktop')
  expect(await page.locator('[data-field="tee-verdict"] [data-tee]').getAttribute('data-tee')).toBe('failed')
  expect(await page.locator('[data-field="tee-summary"]').innerText()).toBe(verdict.summary.replace(hostileUrl, hostileUrlShown))
  const rows = page.locator('[data-table="tee-checks"] tbody tr')
  expect(await rows.evaluateAll((items) => items.map((item) => [item.getAttribute('data-check'), item.getAttribute('data-status')]))).toEqual(verdict.checks.map(({ name, status }) => [name, status]))
  expect(await rows.first().locator('[data-field="status"]').innerText()).toBe('✗ fail')
  expect(await rows.first().locator('[data-field="reason"]').innerText()).toBe(verdict.checks[0]!.reason.replace(hostileUrl, hostileUrlShown))
  expect(await page.locator('[data-field="tee-checked"] time').getAttribute('datetime')).toBe('2026-11-27T10:00:00.000Z')
  expect(await page.locator('[data-field="tee-expires"] time').getAttribute('datetime')).toBe('2026-11-27T11:00:00.000Z')
  for (const [key, value] of Object.entries(verdict.measurements!)) expect(await page.locator(`[data-register="${key}"]`).innerText(), key).toBe(value)
  expect(await page.locator('[data-field="tee-tcb"]').innerText()).toBe('UpToDate')
  expect(await page.locator('[data-field="tee-advisories"]').innerText()).toBe('INTEL-SA-00837')
  // The provider's URL is text, escaped and isolated, never a link; no markup became an element.
  const url = page.locator('[data-field="tee-provider-url"]')
  expect(await url.innerText()).toBe(hostileUrlShown)
  expect(await url.locator('a, b').count()).toBe(0)
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0)
  expect(await page.locator('[data-field="tee-provider-model"]').innerText()).toBe('qwen-2.5-7b')
  expect(await page.locator('[data-field="tee-provider-acknowledged"]').innerText()).toBe('no')
  await page.close()
})

test('a service the indexer has not checked says so, without an error', async () => {
  const [service] = await services()
  const page = await open(`/services/${service!.serviceId}`, { verdicts: [], evidence: {} })
  await expect(page.locator('[data-field="tee-verdict"]').innerText()).resolves.toBe('Not checked yet: the indexer has no TEE verdict for this service.')
  expect(await page.locator('section[aria-label="TEE"] .problem').count()).toBe(0)
  await page.close()
})

describe('Verify in your browser', () => {
  /** Opens the service page with the evidence, clicks, and waits for the browser's own outcome. */
  async function verifyOnPage(service: Service, evidence: TeeEvidence, name: string, chainId?: number): Promise<Page> {
    const verdict = verdictOf(service, 'verified')
    const page = await open(`/services/${service.serviceId}`, { verdicts: [verdict], evidence: { [service.serviceId]: evidence } }, { chainId })
    // Everything else on the page read first, so that what the click asks for stands apart.
    await page.locator('[data-table="jobs"] tbody tr').first().waitFor()
    await page.locator('.timeline li').first().waitFor()
    const before = explorer.browser.requests.length
    await page.locator('[data-action="verify-tee"]').click()
    await page.locator('[data-tee-verify]').waitFor({ timeout: 60_000 })
    await saveScreenshot(page, `tee-verify-${name}-desktop`)
    // The check asks the indexer for the evidence and the verifier, nothing else and nowhere else.
    const asked = explorer.browser.requests.slice(before).map((url) => new URL(url).pathname)
    expect(asked.filter((path) => path !== `/v1/services/${service.serviceId}/tee/evidence` && path !== '/explorer/explorer-tee.js')).toEqual([])
    return page
  }

  const step = (page: Page, name: string) => page.locator(`[data-table="tee-checks"]`).last().locator(`tr[data-check="${name}"]`)

  test("Intel's sample TDX quote with its collateral verifies in Chromium at its pinned time; its report_data names no service key", async () => {
    const [service] = await services()
    const evidence = evidenceOf({ service: service!, quote: readQuote('tdx_quote'), collateral: readCollateral('tdx_quote'), fetchedAt: pinnedClock, rootCa: null })
    const page = await verifyOnPage(service!, evidence, 'intel-sample')
    expect(await step(page, 'root').getAttribute('data-status')).toBe('pass')
    expect(await step(page, 'quote').getAttribute('data-status')).toBe('pass')
    expect(await step(page, 'quote').locator('[data-field="reason"]').innerText()).toContain('TCB UpToDate')
    // dcap-qvl's sample was not made for our services: its report_data binds no address of theirs.
    expect(await step(page, 'binding').getAttribute('data-status')).toBe('fail')
    expect(await step(page, 'binding').locator('[data-field="reason"]').innerText()).toContain(`does not name signing address "${service!.signingAddress}"`)
    expect(await page.locator('[data-tee-verify]').getAttribute('data-tee-verify')).toBe('false')
    await page.close()
  })

  test('the same quote with one bit flipped fails, saying why', async () => {
    const [service] = await services()
    const quote = readQuote('tdx_quote')
    // One bit of MRTD: the TD report the attestation key signed no longer matches its signature.
    quote[tdOffsets.mrTd]! ^= 0x01
    const evidence = evidenceOf({ service: service!, quote, collateral: readCollateral('tdx_quote'), fetchedAt: pinnedClock, rootCa: null })
    const page = await verifyOnPage(service!, evidence, 'flipped-bit')
    expect(await step(page, 'quote').getAttribute('data-status')).toBe('fail')
    expect(await page.locator('[data-field="tee-browser-reason"]').innerText()).toBe(
      "The TDX quote does not verify: ISV enclave report signature is invalid. A quote signed through Intel's PCK chain to the trusted root is required.",
    )
    expect(await step(page, 'binding').getAttribute('data-status')).toBe('skip')
    await page.close()
  })

  describe("a quote of the devnet's own root, binding the service's key", () => {
    const now = new Date()
    const root = createTeeRoot({ now })

    async function devnetEvidence(): Promise<{ service: Service; evidence: TeeEvidence }> {
      const [service] = await services()
      // dstack's layout: the address, 12 zero bytes, then a nonce (none here).
      const reportData = new Uint8Array(64)
      reportData.set(hexToBytes(service!.signingAddress as Hex))
      const quote = makeTdxQuote(root, { reportData })
      return { service: service!, evidence: evidenceOf({ service: service!, quote, collateral: root.collateral, fetchedAt: now, rootCa: root.rootCa }) }
    }

    test('verifies on the devnet chain (31337)', async () => {
      const { service, evidence } = await devnetEvidence()
      const page = await verifyOnPage(service, evidence, 'devnet-root')
      expect(await page.locator('[data-tee-verify]').getAttribute('data-tee-verify')).toBe('true')
      expect(await page.locator('[data-field="tee-browser-outcome"] .badge').innerText()).toBe('✓ verified in your browser')
      expect(await step(page, 'binding').locator('[data-field="reason"]').innerText()).toContain(`report_data names ${service.signingAddress} (layout address-nonce`)
      await page.close()
    })

    test("is refused on any other chain: the devnet's root is not trusted there", async () => {
      const { service, evidence } = await devnetEvidence()
      const page = await verifyOnPage(service, evidence, 'devnet-root-elsewhere', 16661)
      expect(await page.locator('[data-tee-verify]').getAttribute('data-tee-verify')).toBe('false')
      expect(await step(page, 'root').getAttribute('data-status')).toBe('fail')
      expect(await page.locator('[data-field="tee-browser-reason"]').innerText()).toContain("trusted on the devnet's chain only")
      expect(await step(page, 'quote').getAttribute('data-status')).toBe('skip')
      await page.close()
    })
  })
})
