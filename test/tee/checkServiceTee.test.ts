import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type Address, type Hex, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { TeeEvidenceSchema, TeeVerdictSchema, type TeeProviderRecord } from '../../contract/tee.ts'
import { createTeeRoot } from '../../devnet/tee/createTeeRoot.ts'
import { makeTdxQuote } from '../../devnet/tee/makeTdxQuote.ts'
import { TeeFetchError } from '../../errors/tee.ts'
import { checkServiceTee, type CheckServiceTeeParameters } from '../../tee/checkServiceTee.ts'
import { fetchAttestationReport } from '../../tee/fetchAttestationReport.ts'
import { fromDcapCollateral } from '../../tee/toDcapCollateral.ts'
import { verifyTeeEvidence } from '../../tee/verifyTeeEvidence.ts'
import { type StartedServer, startHttpServer } from './support/startHttpServer.ts'
import { writeEndlessBody } from './support/writeEndlessBody.ts'

// End to end against the devnet's own TEE root (devnet/tee): a real quote signed through a PCK
// chain, served by a local HTTP server that plays a provider, hostile when a test says so.
const now = new Date('2026-11-27T00:00:00Z')
const root = createTeeRoot({ now })
const signer: Address = getAddress('0x70997970c51812dc3a010c7d01b50e20d7e60a8f')
const other: Address = getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc')
const provider: Address = getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906')
const appCompose = '{"manifest_version":2,"name":"reference-seller","runner":"docker-compose"}'
const composeHash = createHash('sha256').update(appCompose).digest('hex')

/** dstack/NEAR layout, written out here: address ‖ 12 zero bytes ‖ nonce. */
const bind = (address: Address, nonce: string) => Uint8Array.from(Buffer.concat([Buffer.from(address.slice(2), 'hex'), Buffer.alloc(12), Buffer.from(nonce, 'hex')]))
const report = (reportData: Uint8Array, nonce: string) => ({
  signing_address: signer,
  request_nonce: nonce,
  intel_quote: Buffer.from(makeTdxQuote(root, { reportData, mrConfigId: `0x01${composeHash}${'00'.repeat(15)}` })).toString('hex'),
  info: { tcb_info: JSON.stringify({ app_compose: appCompose }) },
})

type Route = (request: IncomingMessage, response: ServerResponse, nonce: string) => void
const routes: Record<string, Route> = {
  honest: (_, response, nonce) => response.end(JSON.stringify(report(bind(signer, nonce), nonce))),
  'other-key': (_, response, nonce) => response.end(JSON.stringify(report(bind(other, nonce), nonce))),
  'stale-nonce': (_, response, nonce) => response.end(JSON.stringify(report(bind(signer, '11'.repeat(32)), nonce))),
  redirect: (_, response) => response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end(),
  huge: (_, response) => writeEndlessBody(response),
  'not-a-quote': (_, response) => response.end(JSON.stringify({ quote: '00'.repeat(600) })),
  stall: (_, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.write('{"quote":"')
  },
}

let server: StartedServer
beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    const [, name, ...rest] = url.pathname.split('/')
    const path = `/${rest.join('/')}`
    if (name === 'quote-only') {
      if (path === '/v1/attestation/report') return void response.writeHead(404).end()
      // 0G's broker: the address as ASCII text, no nonce.
      const ascii = new Uint8Array(64)
      ascii.set(new TextEncoder().encode(signer))
      return void response.end(JSON.stringify({ quote: Buffer.from(makeTdxQuote(root, { reportData: ascii })).toString('base64'), provider_signer: signer }))
    }
    const route = routes[name ?? '']
    if (route === undefined || path !== '/v1/attestation/report') return void response.writeHead(404).end()
    route(request, response, url.searchParams.get('nonce') ?? '')
  })
})
afterAll(() => server.close())

const recordAt = (name: string, acknowledged = false): TeeProviderRecord => ({
  url: `${server.url}/${name}/`,
  model: 'deepseek-ai/DeepSeek-V3',
  verifiability: 'TeeML',
  targetSeparated: false,
  teeSignerAddress: signer,
  teeSignerAcknowledged: acknowledged,
})

const check = (record: TeeProviderRecord | undefined, overrides: Partial<CheckServiceTeeParameters> = {}) =>
  checkServiceTee({
    service: { serviceId: '7', providerAddress: provider, signingAddress: signer },
    readRecord: async () => record,
    collateral: async () => ({ collateral: fromDcapCollateral(root.collateral) }),
    now: () => now,
    rootCa: root.rootCa,
    maxAgeMs: 3_600_000,
    allowPrivate: true,
    ...overrides,
  })
const statuses = (verdict: { checks: { name: string; status: string }[] }) => verdict.checks.map((c) => `${c.name}:${c.status}`)
const reasonOf = (verdict: { checks: { name: string; reason: string }[] }, name: string) => verdict.checks.find((c) => c.name === name)?.reason

test('default: an honest provider with the nonce bound: verified, and the evidence kept', async () => {
  const { verdict, evidence } = await check(recordAt('honest'))
  expect(verdict.verdict).toBe('verified')
  expect(statuses(verdict)).toEqual(['provider:pass', 'registrySigner:pass', 'quote:pass', 'tcb:pass', 'binding:pass', 'compose:pass', 'appraisal:skip', 'gpu:skip'])
  expect(reasonOf(verdict, 'binding')).toContain('with the nonce we sent')
  expect(TeeVerdictSchema.parse(verdict)).toEqual(verdict)
  expect(TeeEvidenceSchema.parse(evidence)).toEqual(evidence)
  expect(evidence?.reportUrl).toMatch(/\/honest\/v1\/attestation\/report\?model=deepseek-ai%2FDeepSeek-V3&signing_algo=ecdsa&nonce=[0-9a-f]{64}$/)
  expect(evidence?.nonce).toMatch(/^0x[0-9a-f]{64}$/)
})

describe('the evidence contradicts the service: failed', () => {
  test('the quote binds another key', async () => {
    const { verdict, evidence } = await check(recordAt('other-key'))
    expect(verdict.verdict).toBe('failed')
    expect(statuses(verdict)).toContain('binding:fail')
    expect(evidence).toBeDefined()
  })

  test('the quote carries another nonce than the one sent (a replay)', async () => {
    const { verdict } = await check(recordAt('stale-nonce'))
    expect(verdict.verdict).toBe('failed')
    expect(reasonOf(verdict, 'binding')).toContain('address-nonce with the nonce sent')
  })

  test('a quote that is not a DCAP quote at all: failed, kept as evidence without collateral', async () => {
    const { verdict, evidence } = await check(recordAt('not-a-quote'))
    expect(verdict.verdict).toBe('failed')
    expect(statuses(verdict).slice(2, 4)).toEqual(['quote:fail', 'tcb:skip'])
    expect(reasonOf(verdict, 'quote')).toContain('The TEE quote could not be read')
    expect(evidence?.collateral).toBeNull()
  })

  test("a quote signed by a root that is not the trusted one (Intel's, by default)", async () => {
    const { verdict } = await check(recordAt('honest'), { rootCa: undefined })
    expect(verdict.verdict).toBe('failed')
    expect(statuses(verdict)).toContain('quote:fail')
  })
})

describe('a hostile or absent peer: unreachable, with the reason', () => {
  test('a redirect is not followed', async () => {
    const { verdict, evidence } = await check(recordAt('redirect'))
    expect(verdict.verdict).toBe('unreachable')
    expect(verdict.summary).toContain('answered a redirect (302) to "http://169.254.169.254/latest/meta-data"')
    expect(verdict.summary).toContain('Redirects are not followed')
    expect(evidence).toBeUndefined()
  })

  test('a body past the byte cap stops being read', async () => {
    const { verdict } = await check(recordAt('huge'), { fetchReport: (p) => fetchAttestationReport({ ...p, maxBytes: 1_000_000 }) })
    expect(verdict.verdict).toBe('unreachable')
    expect(verdict.summary).toContain('it sent more than 1000000 bytes. At most 1000000 bytes are read.')
  })

  test('a body that never ends is cut at the deadline', async () => {
    const started = Date.now()
    const { verdict } = await check(recordAt('stall'), { fetchReport: (p) => fetchAttestationReport({ ...p, timeoutMs: 300 }) })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(verdict.verdict).toBe('unreachable')
    expect(verdict.summary).toContain('no full answer came within 0.3 s')
  })

  test('a private address is refused unless allowed: by IP address and by name', async () => {
    const byAddress = await check(recordAt('honest'), { allowPrivate: false })
    expect(byAddress.verdict.verdict).toBe('unreachable')
    expect(byAddress.verdict.summary).toContain('"127.0.0.1" is a loopback address')
    const byName = await check({ ...recordAt('honest'), url: `${server.url.replace('127.0.0.1', 'localhost')}/honest` }, { allowPrivate: false })
    expect(byName.verdict.summary).toMatch(/"localhost" is resolved to (127\.0\.0\.1|::1), a loopback address/)
  })

  test("acknowledged: nothing failed, nothing could be fetched, and 0G's owner acknowledged this signer", async () => {
    const { verdict } = await check(recordAt('redirect', true))
    expect(verdict.verdict).toBe('acknowledged')
    expect(reasonOf(verdict, 'quote')).toContain('redirect (302)')
  })

  test('collateral that cannot be had: unreachable, the quote kept as evidence without collateral', async () => {
    const collateral = async () => {
      throw new TeeFetchError({ what: 'TCB info', url: 'https://pccs.example/tdx/certification/v4/tcb', reason: 'it answered 503', allowed: 'x.' })
    }
    const { verdict, evidence } = await check(recordAt('honest'), { collateral })
    expect(verdict.verdict).toBe('unreachable')
    expect(verdict.summary).toContain('it answered 503')
    expect(evidence?.collateral).toBeNull()
  })

  test('a record that cannot be read is not "none"', async () => {
    const { verdict } = await check(undefined, { readRecord: async () => Promise.reject(new Error('RPC down')) })
    expect(verdict.verdict).toBe('unreachable')
    expect(statuses(verdict).slice(0, 2)).toEqual(['provider:skip', 'registrySigner:skip'])
  })
})

test('no record on 0G: none, and nothing fetched', async () => {
  const fetchReport = vi.fn(fetchAttestationReport)
  const { verdict, evidence } = await check(undefined, { fetchReport })
  expect(verdict.verdict).toBe('none')
  expect(fetchReport).not.toHaveBeenCalled()
  expect(evidence).toBeUndefined()
})

test("a 404 at /v1/attestation/report falls back to 0G's /v1/quote, with no nonce", async () => {
  const { verdict, evidence } = await check(recordAt('quote-only'))
  expect(evidence?.reportUrl).toBe(`${server.url}/quote-only/v1/quote`)
  expect(evidence?.nonce).toBeNull()
  expect(verdict.checks.find((c) => c.name === 'binding')).toMatchObject({ status: 'pass' })
  expect(reasonOf(verdict, 'binding')).toContain('(0g-ascii layout); no nonce: the quote may be a replay')
})

describe('offline re-verification of the evidence kept', () => {
  let evidence: NonNullable<Awaited<ReturnType<typeof check>>['evidence']>
  beforeAll(async () => {
    evidence = (await check(recordAt('honest'))).evidence!
  })

  test("at its fetchedAt with the devnet root: verified; the 0G record and NRAS's answer are said to be absent", () => {
    const verdict = verifyTeeEvidence({ evidence: { ...evidence, fetchedAt: now.toISOString() }, rootCa: root.rootCa })
    expect(verdict.verdict).toBe('verified')
    expect(reasonOf(verdict, 'provider')).toContain("Offline: the provider's 0G record is not part of the evidence")
    expect(verdict.checks.find((c) => c.name === 'gpu')).toMatchObject({ status: 'skip', reason: expect.stringContaining("Offline: NRAS's answer is not part of the evidence") })
  })

  test('the tee:verify command, run as a process: exit 0 verified, 1 otherwise, 2 on bad usage', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tee-verify-'))
    const file = join(folder, 'evidence.json')
    const rootFile = join(folder, 'root.hex')
    writeFileSync(file, JSON.stringify({ ...evidence, fetchedAt: now.toISOString() }))
    writeFileSync(rootFile, Buffer.from(root.rootCa).toString('hex'))
    const run = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile('node_modules/.bin/tsx', ['tee/verifyTeeMain.ts', ...args], (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr })),
      )
    const verified = await run(file, '--root-ca', rootFile)
    expect(verified.code).toBe(0)
    expect(verified.stdout).toMatch(/^pass\s+quote\s+A TDX quote/m)
    expect(verified.stdout).toContain('verdict: verified (checked at 2026-11-27T00:00:00.000Z)')
    const intelRoot = await run(file)
    expect(intelRoot.code).toBe(1)
    expect(intelRoot.stdout).toContain('verdict: failed')
    expect(intelRoot.stdout).toContain('note: the evidence names a root of its own')
    const late = await run(file, '--root-ca', rootFile, '--at', '2027-06-01T00:00:00Z')
    expect(late.code).toBe(1)
    expect(late.stdout).toContain('is not valid at 2027-06-01T00:00:00.000Z')
    expect((await run()).code).toBe(2)
    expect((await run(file, '--at', 'yesterday')).stderr).toContain('--at "yesterday" is not an ISO 8601 time')
    const missing = await run(join(folder, 'none.json'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('could not be read')

    // The policy flags. The oracles read the evidence, not the verifier: MRTD at bytes 184–232 of
    // a TDX quote (header 48, then TEE_TCB_SVN 16, MRSEAM 48, MRSIGNERSEAM 48, three 8-byte fields).
    const mrTd = `0x${evidence.quote.slice(2 + 184 * 2, 2 + 232 * 2)}`
    const composeHash = `0x${createHash('sha256').update(evidence.appCompose!).digest('hex')}`
    const appraised = await run(file, '--root-ca', rootFile, '--tee-mrtds', mrTd.toUpperCase().replace('0X', '0x'), '--tee-compose-hashes', composeHash)
    expect(appraised.code).toBe(0)
    expect(appraised.stdout).toMatch(/^pass\s+appraisal\s+compose hash and MRTD on the allow-list\./m)
    const otherMrTd = await run(file, '--root-ca', rootFile, '--tee-mrtds', `0x${'ab'.repeat(48)}`, '--tee-mrtds', `0x${'cd'.repeat(48)}`)
    expect(otherMrTd.code).toBe(1)
    expect(otherMrTd.stdout).toContain(`fail  appraisal`)
    expect(otherMrTd.stdout).toContain(`MRTD ${mrTd} is not on the allow-list.`)
    const strict = await run(file, '--root-ca', rootFile, '--tee-tcb-statuses', 'SWHardeningNeeded')
    expect(strict.code).toBe(1)
    expect(strict.stdout).toMatch(/^fail\s+tcb\s+.*UpToDate/m)
    const revoked = await run(file, '--tee-tcb-statuses', 'UpToDate,Revoked')
    expect(revoked.code).toBe(2)
    expect(revoked.stderr).toContain('--tee-tcb-statuses must be a comma-separated list of UpToDate, SWHardeningNeeded, ConfigurationNeeded, ConfigurationAndSWHardeningNeeded, OutOfDate, OutOfDateConfigurationNeeded, got "UpToDate,Revoked".')
  })
})
