import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { copyFileSync } from 'node:fs'
import { Agent, setGlobalDispatcher } from 'undici'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { createMarketClient } from '../../client/createMarketClient.ts'
import { loadConfig } from '../../config/loadConfig.ts'
import { startHostedMcpServer, type StartHostedMcpServerReturnType } from '../../mcp/hosted/startHostedMcpServer.ts'
import { startRestIndexer, type StartRestIndexerReturnType } from '../../server/startRestIndexer.ts'
import { listenServing } from '../../platform/serving/listenServing.ts'
import { readServingOptions } from '../../platform/serving/readServingOptions.ts'
import { toFastifyServing } from '../../platform/serving/toFastifyServing.ts'
import { browserArgs, launchBrowser, type LaunchedBrowser } from '../explorer/support/launchBrowser.ts'
import { seededJobs } from '../mcp/support/seededJobs.ts'
import { callGetJob } from './support/callGetJob.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { makeTestCertificates, type IssuedCertificate } from '../support/makeTestCertificates.ts'
import { readServedCertificate } from './support/readServedCertificate.ts'

const devnet = inject('devnet')
const certificates = makeTestCertificates()
/** The paths the servers are configured with; a renewal writes new files over them. */
let served: IssuedCertificate
let rest: StartRestIndexerReturnType
let mcp: StartHostedMcpServerReturnType

function configWith(tls: { certPath: string; keyPath: string }) {
  return loadConfig({
    argv: [
      '--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment),
      '--poll-interval', '250', '--host', '127.0.0.1', '--port', '0', '--mcp-port', '0',
      '--tls-cert', tls.certPath, '--tls-key', tls.keyPath,
    ],
    env: {},
  })
}

async function waitForReady(url: string): Promise<void> {
  while ((await fetch(`${url}/readyz`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
}

beforeAll(async () => {
  // Node's fetch (the typed client's and the MCP SDK's) trusts this file's CA and nothing else.
  setGlobalDispatcher(new Agent({ connect: { ca: certificates.ca } }))
  served = certificates.issue('served')
  const config = configWith(served)
  rest = await startRestIndexer(config, { mode: 'production', logger: false })
  mcp = await startHostedMcpServer(config, { store: rest.store, log: () => undefined })
  await waitForReady(rest.url)
})

afterAll(async () => {
  await mcp?.close()
  await rest?.stop()
  certificates.remove()
})

test('default: both servers answer on https:// with the configured certificate', async () => {
  expect(rest.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
  expect(mcp.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
  expect(await readServedCertificate(rest.url, { ca: certificates.ca })).toBe(served.fingerprint256)
  expect(await readServedCertificate(mcp.url, { ca: certificates.ca })).toBe(served.fingerprint256)
})

test('the typed client reads a job over https', async () => {
  const client = createMarketClient({ baseUrl: rest.url })
  const answer = await client.jobs.getJob({ params: { id: seededJobs.settled } })
  expect(answer.status).toBe(200)
  expect(answer.status === 200 && answer.body.jobId).toBe(seededJobs.settled)
})

test('curl --cacert reads a job over https', async () => {
  // Not execFileSync: the servers answer from this process's event loop.
  const { stdout: body } = await promisify(execFile)('curl', ['-sS', '--fail', '--max-time', '10', '--cacert', certificates.caPath, `${rest.url}/v1/jobs/${seededJobs.settled}`])
  expect(JSON.parse(body)).toMatchObject({ jobId: seededJobs.settled, stateName: 'Settled' })
})

test('the official MCP client calls get_job over https (Streamable HTTP)', async () => {
  const result = await callGetJob(`${mcp.url}/mcp`, { jobId: seededJobs.settled, clientName: 'tls-test' })
  expect(result.isError ?? false).toBe(false)
  expect(result.structuredContent).toMatchObject({ jobId: seededJobs.settled })
})

test('the explorer works in chromium over https, trusting only the test CA', async () => {
  let browser: LaunchedBrowser | undefined
  try {
    browser = await launchBrowser({ args: [...browserArgs, `--ignore-certificate-errors-spki-list=${certificates.caSpkiHash}`] })
    const page = await browser.context.newPage()
    await page.goto(`${rest.url}/jobs/${seededJobs.settled}`)
    await page.getByText('Settled').first().waitFor()
    expect(browser.requests.every((url) => url.startsWith(`${rest.url}/`))).toBe(true)
  } finally {
    await browser?.close()
  }
})

test('without the CA on its list, chromium refuses the page', async () => {
  let browser: LaunchedBrowser | undefined
  try {
    browser = await launchBrowser()
    const page = await browser.context.newPage()
    await expect(page.goto(`${rest.url}/`)).rejects.toThrow(/ERR_CERT_AUTHORITY_INVALID/)
  } finally {
    await browser?.close()
  }
})

test('plain http:// to a TLS port gets no answer: the server never falls back to HTTP', async () => {
  await expect(fetch(rest.url.replace('https:', 'http:') + '/healthz')).rejects.toThrow()
})

describe('start-up refuses a certificate it cannot serve, naming the file', () => {
  test('a key that is not the certificate\'s', async () => {
    const other = certificates.issue('other')
    const config = configWith({ certPath: served.certPath, keyPath: other.keyPath })
    await expect(startRestIndexer(config, { mode: 'production', logger: false })).rejects.toThrow(
      `--tls-key "${other.keyPath}" is not the key of the certificate in "${served.certPath}" (CN=served): it must be the private key the certificate was issued for.`,
    )
    await expect(startHostedMcpServer(config, { log: () => undefined })).rejects.toThrow(`--tls-key "${other.keyPath}" is not the key`)
  })

  test('a missing file', async () => {
    const missing = `${certificates.dir}/missing.pem`
    await expect(startRestIndexer(configWith({ certPath: missing, keyPath: served.keyPath }), { mode: 'production', logger: false })).rejects.toThrow(
      `--tls-cert "${missing}" cannot be read (ENOENT: no such file or directory, open '${missing}'): it must be a readable PEM certificate file.`,
    )
  })

  test('a key file that holds a certificate', async () => {
    await expect(startRestIndexer(configWith({ certPath: served.certPath, keyPath: served.certPath }), { mode: 'production', logger: false })).rejects.toThrow(
      `--tls-key "${served.certPath}" holds no PEM private key`,
    )
  })

  test('a certificate without its key', () => {
    expect(() =>
      loadConfig({ argv: ['--network', 'devnet', ...deploymentArgv(devnet.deployment), '--tls-cert', served.certPath], env: {} }),
    ).toThrow('--tls-cert is set but --tls-key (TLS_KEY) is not: HTTPS needs both the certificate and its key, or neither for plain HTTP.')
  })
})

test('a renewed certificate written over the files is served without a restart', async () => {
  const renewed = certificates.issue('renewed')
  copyFileSync(renewed.certPath, served.certPath)
  copyFileSync(renewed.keyPath, served.keyPath)
  const deadline = Date.now() + 20_000
  for (;;) {
    const [restNow, mcpNow] = await Promise.all([readServedCertificate(rest.url, { ca: certificates.ca }), readServedCertificate(mcp.url, { ca: certificates.ca })])
    if (restNow === renewed.fingerprint256 && mcpNow === renewed.fingerprint256) break
    if (Date.now() > deadline) throw new Error(`still serving ${restNow} / ${mcpNow}, not the renewed ${renewed.fingerprint256}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const client = createMarketClient({ baseUrl: rest.url })
  expect((await client.jobs.getJob({ params: { id: seededJobs.settled } })).status).toBe(200)
})

test('SIGHUP reloads the certificate at once', async () => {
  const first = certificates.issue('signalled')
  const settings = { tlsCert: first.certPath, tlsKey: first.keyPath, trustProxy: [] }
  const app = Fastify({ ...toFastifyServing(await readServingOptions(settings)) })
  app.get('/', async () => 'ok')
  // Files looked at once an hour: only the signal can explain a reload within the test.
  const { url, unwatch } = await listenServing(app, { host: '127.0.0.1', port: 0, settings, tlsWatchIntervalMs: 3_600_000 })
  try {
    const second = certificates.issue('signalled-next')
    copyFileSync(second.certPath, first.certPath)
    copyFileSync(second.keyPath, first.keyPath)
    expect(await readServedCertificate(url, { ca: certificates.ca })).toBe(first.fingerprint256)
    process.kill(process.pid, 'SIGHUP')
    await expect.poll(() => readServedCertificate(url, { ca: certificates.ca })).toBe(second.fingerprint256)
  } finally {
    unwatch()
    await app.close()
  }
})
