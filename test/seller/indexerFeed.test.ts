import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keccak256, stringToHex, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { recoverAttestationSigner } from '../../chain/attestation/recoverAttestationSigner.ts'
import { createBuiltinBackend } from '../../devnet/seller/backends/createBuiltinBackend.ts'
import { createMarketDriver } from '../indexer/support/createMarketDriver.ts'
import { projectRoot, spawnEntryPoint, type SpawnedEntryPoint } from '../rest/spawnEntryPoint.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { type SellerFixture, startSellerFixture, testAccount } from './sellerFixture.ts'

// The reference seller as users run it (`npm run seller -- --indexer-url <url>`, dist/app/seller.js)
// learns of its jobs from a REST indexer run as `npm run serve` runs it (dist/app/serve.js), on a
// devnet of this file's own. The tests run in order, on one service: each leaves the seller and
// the indexer as the next expects them. "Answered once" is read twice: one "settled in <tx>" line
// per job over every run of the seller, and the seller's account sent one transaction per job.

const seller = testAccount(20)
const buyer = testAccount(21)
const signingKey = generatePrivateKey()
const tempDir = mkdtempSync(join(tmpdir(), 'seller-feed-'))
const deploymentPath = join(tempDir, 'deployment.json')
const stateFile = join(tempDir, 'state.json')
const cursorFile = `${stateFile}.cursor`

let fixture: SellerFixture
let serviceId: bigint
let indexerUrl: string
let indexer: SpawnedEntryPoint | undefined
let sellerRun: SpawnedEntryPoint | undefined
/** Every run of the seller, for counting answers across restarts. */
const runs: SpawnedEntryPoint[] = []

beforeAll(async () => {
  expect(existsSync(join(projectRoot, 'dist/app/seller.js')), 'run `npx tsup --env.only app`').toBe(true)
  fixture = await startSellerFixture()
  writeFileSync(deploymentPath, JSON.stringify(fixture.deployment))
  serviceId = await fixture.registerService({ seller, signingAddress: privateKeyToAccount(signingKey).address })
  indexerUrl = `http://127.0.0.1:${await getFreePort()}`
})

afterAll(async () => {
  for (const run of runs) await run.stop()
  await indexer?.stop()
  await fixture?.stop()
  rmSync(tempDir, { recursive: true, force: true })
})

async function startIndexer(url: string): Promise<SpawnedEntryPoint> {
  const port = new URL(url).port
  const started = spawnEntryPoint([
    'dist/app/serve.js', '--network', 'devnet', '--rpc-url', fixture.rpcUrl, ...deploymentArgv(fixture.deployment),
    '--port', port, '--poll-interval', '250', '--inference-serving', 'none',
  ])
  await started.waitFor(/REST indexer \(devnet\) serving on/)
  return started
}

function startSeller(url: string, state: string): SpawnedEntryPoint {
  const run = spawnEntryPoint(
    [
      'dist/app/seller.js', '--rpc-url', fixture.rpcUrl, '--deployment', deploymentPath, '--port', '0',
      '--service', String(serviceId), '--poll-interval', '100', '--state-file', state, '--indexer-url', url,
    ],
    { env: { SELLER_PRIVATE_KEY: toHex(seller.getHdKey().privateKey!), SIGNING_PRIVATE_KEY: signingKey } },
  )
  runs.push(run)
  return run
}

/** The seller's log messages (JSON lines on a pipe). */
function messagesOf(output: string): string[] {
  return output.split('\n').flatMap((line) => {
    try {
      const { msg } = JSON.parse(line) as { msg?: unknown }
      return typeof msg === 'string' ? [msg] : []
    } catch {
      return []
    }
  })
}

/** "settled in <tx>" lines for the job over every run: one per attestation the seller sent. */
function answersOf(jobId: bigint): number {
  const line = `job ${jobId} (service ${serviceId}) settled in 0x`
  return runs.flatMap((run) => messagesOf(run.output())).filter((message) => message.startsWith(line)).length
}

const sentTransactions = (): Promise<number> => fixture.publicClient.getTransactionCount({ address: seller.address })

/** Each job is settled with an attestation signed by the service's key, answered by one transaction of the seller's. */
async function expectAnsweredOnce(jobIds: readonly bigint[], { sentBefore }: { sentBefore: number }): Promise<void> {
  for (const jobId of jobIds) {
    const job = await fixture.waitForSettled(jobId)
    expect(job.state).toBe(3)
    expect(recoverAttestationSigner({ text: job.attestationText, signature: job.attestationSignature }).signer).toBe(privateKeyToAccount(signingKey).address)
    await expect.poll(() => answersOf(jobId)).toBe(1)
  }
  expect(await sentTransactions()).toBe(sentBefore + jobIds.length)
}

const readCursor = (): string | null => (JSON.parse(readFileSync(cursorFile, 'utf8')) as { cursor: string | null }).cursor
const cursorBlock = (): bigint => {
  const cursor = existsSync(cursorFile) ? readCursor() : null
  return cursor === null ? -1n : BigInt(cursor.split('-')[1] as string)
}

test('default: a job created for its service is learnt from the feed and answered, attested, once', async () => {
  indexer = await startIndexer(indexerUrl)
  sellerRun = startSeller(indexerUrl, stateFile)
  // No cursor yet: the stream opens from now on and the Pending jobs are read over REST (none).
  await sellerRun.waitFor(/Read 0 Pending jobs of this seller's services from the indexer's REST API/)
  expect(messagesOf(sellerRun.output())).toContain(`Following the indexer's feed at ${indexerUrl} after reading its Pending jobs.`)

  const sentBefore = await sentTransactions()
  const jobId = await fixture.createJob({ buyer, serviceId, prompt: 'Hello through the feed.' })
  await expectAnsweredOnce([jobId], { sentBefore })
  // The cursor on disk passes the answer once the indexer has sent its block.
  const answeredAt = await fixture.publicClient.getBlockNumber()
  await expect.poll(cursorBlock).toBeGreaterThanOrEqual(answeredAt)
})

test('stopped, two jobs created, restarted: it resumes after the cursor on disk and answers both once', async () => {
  expect(await sellerRun!.stop()).toBe(0)
  const cursor = readCursor()
  expect(cursor).toMatch(/^31337-[0-9]+-[0-9a-f]{16}-(h|c|[0-9]+)$/)
  const sentBefore = await sentTransactions()
  const jobIds = [
    await fixture.createJob({ buyer, serviceId, prompt: 'Created while the seller was away, 1.' }),
    await fixture.createJob({ buyer, serviceId, prompt: 'Created while the seller was away, 2.' }),
  ]

  sellerRun = startSeller(indexerUrl, stateFile)
  await expectAnsweredOnce(jobIds, { sentBefore })
  const messages = messagesOf(sellerRun.output())
  expect(messages).toContain(`Following the indexer's feed at ${indexerUrl} after ${cursor}.`)
  // The feed replayed them: no REST read was needed.
  expect(messages.filter((message) => message.includes("from the indexer's REST API"))).toEqual([])
})

test("the indexer restarts with its journal lost: the seller is told to reset, reads its Pending jobs over REST and answers them once, then follows the feed on", async () => {
  expect(await indexer!.stop()).toBe(0)
  // The stream ends; the indexer is gone, and the seller says so.
  await sellerRun!.waitFor(/could not be read: connect ECONNREFUSED/)
  const sentBefore = await sentTransactions()
  const whileAway = await fixture.createJob({ buyer, serviceId, prompt: 'Created while the indexer was down.' })

  indexer = await startIndexer(indexerUrl)
  await expectAnsweredOnce([whileAway], { sentBefore })
  const messages = messagesOf(sellerRun!.output())
  expect(messages).toContainEqual(
    expect.stringMatching(/^The indexer's feed cannot resume after 31337-[0-9]+-[0-9a-f]{16}-\S+ \((cursor_too_old|unknown_block)\): reading its Pending jobs over REST, then following it after 31337-/),
  )
  expect(messages).toContain("Read 1 Pending job of this seller's services from the indexer's REST API.")

  const next = await fixture.createJob({ buyer, serviceId, prompt: 'Created after the reset.' })
  await expectAnsweredOnce([next], { sentBefore: sentBefore + 1 })
})

test('an indexer that answers 503, then nothing: the seller says so, keeps running, and answers the Pending job once the indexer is up', async () => {
  expect(await sellerRun!.stop()).toBe(0)
  expect(await indexer!.stop()).toBe(0)
  indexer = undefined
  const port = await getFreePort()
  const url = `http://127.0.0.1:${port}`
  let silent = false
  const held: ServerResponse[] = []
  const stand = createServer((_request, response) => {
    if (silent) return void held.push(response)
    response.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' })
    response.end(JSON.stringify({ error: { code: 'feed_not_ready', message: 'The live feed starts once the indexer has caught up with the chain.' } }))
  })
  await new Promise<void>((resolve) => stand.listen(port, '127.0.0.1', resolve))

  // A first start (no cursor file) against it.
  sellerRun = startSeller(url, join(tempDir, 'second-state.json'))
  await sellerRun.waitFor(/answered HTTP 503 \(feed_not_ready\)\. Trying again in 1 s, from now on\./)
  const sentBefore = await sentTransactions()
  const jobId = await fixture.createJob({ buyer, serviceId, prompt: 'Created while no indexer served the feed.' })
  silent = true
  await sellerRun.waitFor(/gave no answer within 10 s\. Trying again in/)
  expect(sellerRun.child.exitCode).toBe(null)
  expect(await fixture.readJob(jobId)).toMatchObject({ state: 0 })

  for (const response of held) response.destroy()
  stand.closeAllConnections()
  await new Promise<void>((resolve) => stand.close(() => resolve()))
  indexer = await startIndexer(url)
  await expectAnsweredOnce([jobId], { sentBefore })
  expect(messagesOf(sellerRun.output())).toContain(`The indexer's feed at ${url} is followed again.`)
})

test('a reorg takes a settled job away and makes another with its id: the seller answers the new one afresh, once on its branch', async () => {
  const chain = createMarketDriver({ rpcUrl: fixture.rpcUrl, deployment: fixture.deployment })
  const snapshot = await chain.snapshot()
  const sentBefore = await sentTransactions()
  const jobId = await fixture.createJob({ buyer, serviceId, prompt: 'On the first branch.' })
  await expectAnsweredOnce([jobId], { sentBefore })

  // The other branch: the job never was; one of the same id with another prompt is, and the branch outgrows the first.
  await chain.revert(snapshot)
  expect(await fixture.createJob({ buyer, serviceId, prompt: 'On the second branch.' })).toBe(jobId)
  await chain.mine(3)
  await sellerRun!.waitFor(/The indexer's feed reports a reorg back to block/)
  const job = await fixture.waitForSettled(jobId)
  const { output } = await createBuiltinBackend().answer({ jobId, serviceId, modelId: 'reference-model-1', prompt: 'On the second branch.' })
  expect(job.outputRootHash).toBe(keccak256(stringToHex(output)))
  // One answer on each branch; this branch holds one transaction of the seller's.
  await expect.poll(() => answersOf(jobId)).toBe(2)
  expect(await sentTransactions()).toBe(sentBefore + 1)
})
