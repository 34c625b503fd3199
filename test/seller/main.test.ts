import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { recoverAttestationSigner } from '../../chain/attestation/recoverAttestationSigner.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { type SellerFixture, startSellerFixture, testAccount } from './sellerFixture.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const seller = testAccount(18)
const buyer = testAccount(19)
const signingKey = generatePrivateKey()

let fixture: SellerFixture
const tempDir = mkdtempSync(join(tmpdir(), 'seller-cli-'))
const deploymentPath = join(tempDir, 'deployment.json')

type Run = { child: ChildProcess; output: () => string; exited: Promise<number | null> }

function runSeller(args: readonly string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'devnet/seller/main.ts', ...args], {
    cwd: projectRoot,
    // INDEXER_URL, which the hosted MCP server shares, would make it follow a feed.
    env: { ...process.env, INDEXER_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

beforeAll(async () => {
  fixture = await startSellerFixture()
  writeFileSync(deploymentPath, JSON.stringify(fixture.deployment))
})

afterAll(async () => {
  await fixture?.stop()
  rmSync(tempDir, { recursive: true, force: true })
})

test('default', async () => {
  const serviceId = await fixture.registerService({ seller, signingAddress: privateKeyToAccount(signingKey).address })
  const port = await getFreePort()
  const run = runSeller(
    ['--rpc-url', fixture.rpcUrl, '--deployment', deploymentPath, '--port', String(port), '--service', String(serviceId), '--poll-interval', '100'],
    { SELLER_PRIVATE_KEY: toHex(seller.getHdKey().privateKey!), SIGNING_PRIVATE_KEY: signingKey },
  )
  try {
    while (!run.output().includes('outputs at')) {
      if (run.child.exitCode !== null) throw new Error(run.output())
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(run.output()).toContain(`Reference seller for services ${serviceId} on ${fixture.rpcUrl}`)

    const jobId = await fixture.createJob({ buyer, serviceId, prompt: 'Hello from the CLI test.' })
    const job = await fixture.waitForSettled(jobId)
    expect(recoverAttestationSigner({ text: job.attestationText, signature: job.attestationSignature }).signer).toBe(
      privateKeyToAccount(signingKey).address,
    )
    const served = await fixture.fetchOutput(`http://127.0.0.1:${port}`, jobId, buyer)
    expect(served.status).toBe(200)
    expect(served.body.outputRootHash).toBe(job.outputRootHash)
  } finally {
    run.child.kill('SIGTERM')
  }
  expect(await run.exited).toBe(0)
})

test.each([
  [['--port', 'abc'], {}, '--port must be a non-negative integer, got "abc".'],
  [['--backend', 'openai'], {}, '--backend openai needs --openai-url'],
  [['--bogus'], {}, "Unknown option '--bogus'."],
  [['--service', '1'], { SELLER_PRIVATE_KEY: '' }, '--service needs SELLER_PRIVATE_KEY'],
  [['--tls-cert', '/etc/tls/fullchain.pem'], {}, '--tls-cert and --tls-key (TLS_CERT, TLS_KEY) go together'],
  [['--indexer-url', 'ftp://127.0.0.1:8080'], {}, '--indexer-url must be an http:// or https:// URL, got "ftp://127.0.0.1:8080".'],
  [[], { INDEXER_URL: 'not a url' }, '--indexer-url must be an http:// or https:// URL, got "not a url".'],
  [['--cursor-file', 'cursor.json'], { INDEXER_URL: 'none' }, '--cursor-file keeps the cursor of --indexer-url (INDEXER_URL): give both, or neither to scan the node.'],
  [['--indexer-url', 'http://127.0.0.1:8080', '--from-block', '5'], {}, '--from-block is where the node is scanned; with --indexer-url (INDEXER_URL) the seller follows the feed instead: give one of them.'],
])('refuses %j (environment %j) with a clear message', async (args, env, message) => {
  const run = runSeller(['--deployment', deploymentPath, ...args], env)
  expect(await run.exited).toBe(1)
  expect(run.output()).toContain(`The reference seller failed to start: ${message}`)
})
