import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Address,
  type Hash,
  type Hex,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  keccak256,
  parseEther,
  stringToBytes,
  stringToHex,
} from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { JobSchema } from '../../contract/job.ts'
import { RunResultSchema, runTimeoutSec } from '../../contract/mcp.ts'
import { delistedServiceIndex, inactiveServiceIndex, plannedServices } from '../../devnet/seed/marketPlan.ts'
import { devnetMnemonic, seedAccounts } from '../../devnet/seed/seedAccounts.ts'
import { plannedTeeRecords } from '../../devnet/seed/teePlan.ts'
import type { StartReferenceSellerReturnType } from '../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { startSeededSeller } from '../support/startSeededSeller.ts'
import { accountKey } from './support/accountKey.ts'
import { connectStdioMcp, textOf, type StdioMcp } from './support/connectStdioMcp.ts'
import { devnetEnv } from './support/devnetEnv.ts'
import { startInterceptingRpc } from './support/startInterceptingRpc.ts'

/** Served by the reference seller (seed seller #1); its TEE verdict is `verified`. */
const servedServiceId = '1'
/**
 * Seed seller #3's: nothing answers its jobs. Its TEE verdict is `acknowledged` (its 0G record's
 * signer acknowledged, no evidence to be had), so the tests that pay it accept that verdict.
 */
const acceptsUnserved = 'acknowledged'
const unservedServiceId = String(plannedServices.findIndex((service) => service.seller === 2) + 1)
const delistedServiceId = String(delistedServiceIndex + 1)
/** The active seeded service with the smallest maxInputBytes. */
const activeIndexes = plannedServices.map((_, index) => index).filter((index) => index !== delistedServiceIndex && index !== inactiveServiceIndex)
const smallest = activeIndexes.reduce((best, index) =>
  plannedServices[index]!.maxInputBytes < plannedServices[best]!.maxInputBytes ? index : best)

let devnet: StartDevnetReturnType
let seller: StartReferenceSellerReturnType
let ledgerFolder: string
const publicClient = () => createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })
const servers: StdioMcp[] = []

async function startServer(env: Record<string, string>): Promise<StdioMcp> {
  const mcp = await connectStdioMcp({
    env: devnetEnv(devnet, {
      MARKET_POLL_INTERVAL_MS: '100',
      MARKET_OUTPUT_URL: `${seller.url}/outputs/{jobId}`,
      MARKET_OUTPUT_SELLER: seedAccounts.sellers[0].address,
      // The ledger is always kept: each server its own, never the user's.
      MARKET_SPEND_LEDGER: join(ledgerFolder, String(servers.length), 'spend.json'),
      ...env,
    }),
  })
  servers.push(mcp)
  return mcp
}

beforeAll(async () => {
  // Its own devnet: run creates jobs and the expiry test moves the chain's clock.
  devnet = await startTestDevnet({ seed: true })
  seller = await startSeededSeller(devnet)
  ledgerFolder = await mkdtemp(join(tmpdir(), 'tee-market-run-'))
})

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await seller?.stop()
  await devnet?.stop()
  if (ledgerFolder !== undefined) await rm(ledgerFolder, { recursive: true, force: true })
})

type ChainSnapshot = { balance: bigint; nonce: number; nextJobId: bigint }

async function snapshot(address: Address): Promise<ChainSnapshot> {
  const client = publicClient()
  const [balance, nonce, nextJobId] = await Promise.all([
    client.getBalance({ address }),
    client.getTransactionCount({ address }),
    client.readContract({ address: devnet.deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' }),
  ])
  return { balance, nonce, nextJobId }
}

/** What the buyer paid in gas for these transactions. */
async function gasCost(hashes: readonly Hash[]): Promise<bigint> {
  const receipts = await Promise.all(hashes.map((hash) => publicClient().getTransactionReceipt({ hash })))
  return receipts.reduce((total, receipt) => total + receipt.gasUsed * receipt.effectiveGasPrice, 0n)
}

test('default: pays, settles, verifies, fetches the output; one job, price + gas spent', async () => {
  const key = accountKey(20)
  const buyer = privateKeyToAccount(key).address
  const mcp = await startServer({ MARKET_PRIVATE_KEY: key })
  const before = await snapshot(buyer)

  const started = performance.now()
  const result = await mcp.call('run', { serviceId: servedServiceId, prompt: 'Name three prime numbers.', timeoutSec: 60 })
  const seconds = (performance.now() - started) / 1_000
  console.info(`run on the devnet took ${seconds.toFixed(2)} s (create, settle by the reference seller, verify, output)`)

  expect(result.isError ?? false, textOf(result)).toBe(false)
  const response = RunResultSchema.parse(JSON.parse(textOf(result)))
  expect(result.structuredContent).toEqual(JSON.parse(textOf(result)))
  const service = await publicClient().readContract({
    address: devnet.deployment.registry,
    abi: registryAbi,
    functionName: 'getService',
    args: [1n],
  })
  expect(response).toMatchObject({
    jobId: before.nextJobId.toString(),
    verified: { ok: true, recoveredSigner: service.signingAddress, expectedSigner: service.signingAddress },
    createJobChainscan: null,
    service: { id: servedServiceId, modelId: service.modelId, signingAddress: service.signingAddress },
    buyer,
  })

  const job = JobSchema.parse(JSON.parse(textOf(await mcp.call('get_job', { jobId: response.jobId }))))
  expect(job).toMatchObject({ stateName: 'Settled', buyer, amount: service.pricePerCall.toString() })
  expect(response.output).toBeTypeOf('string')
  expect(keccak256(stringToBytes(response.output!))).toBe(job.outputRootHash)
  expect(response).not.toHaveProperty('outputNote')

  const after = await snapshot(buyer)
  expect(after.nextJobId).toBe(before.nextJobId + 1n)
  expect(after.nonce).toBe(before.nonce + 1)
  expect(before.balance - after.balance).toBe(service.pricePerCall + (await gasCost([response.txHashes.createJob])))
})

test('progress: notifications while it waits, when the client sends a progress token', async () => {
  const mcp = await startServer({ MARKET_PRIVATE_KEY: accountKey(27) })
  const notes: { progress: number; total?: number; message?: string }[] = []
  const result = (await mcp.client.callTool(
    { name: 'run', arguments: { serviceId: servedServiceId, prompt: 'Say hello.', timeoutSec: 60 } },
    undefined,
    { timeout: 600_000, onprogress: (progress) => notes.push(progress) },
  )) as CallToolResult
  expect(result.isError ?? false, textOf(result)).toBe(false)
  const { jobId } = RunResultSchema.parse(JSON.parse(textOf(result)))
  expect(notes.length).toBeGreaterThanOrEqual(2)
  expect(notes[0]?.message).toMatch(new RegExp(`^Job ${jobId} created and paid in 0x[0-9a-f]{64}; waiting for the seller to settle it\\.$`))
  expect(notes.at(-1)?.message).toBe(`Job ${jobId} settled: verifying its attestation and fetching the output.`)
  for (const [index, note] of notes.entries()) {
    expect(note.total).toBe(60)
    if (index > 0) expect(note.progress).toBeGreaterThan(notes[index - 1]!.progress)
  }
})

/** Resolves once the escrow's next job id has moved past `before`: run has paid. */
async function paid(before: bigint): Promise<void> {
  const client = publicClient()
  while ((await client.readContract({ address: devnet.deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' })) === before) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

test('a cancelled run stops waiting; the log names the paid job, which stays on chain unrefunded', async () => {
  const key = accountKey(24)
  const buyer = privateKeyToAccount(key).address
  const mcp = await startServer({ MARKET_PRIVATE_KEY: key, MARKET_REQUIRE_TEE: acceptsUnserved })
  const before = await snapshot(buyer)
  const controller = new AbortController()
  const running = mcp.client.callTool(
    { name: 'run', arguments: { serviceId: unservedServiceId, prompt: 'Cancel me.', timeoutSec: 600 } },
    undefined,
    { timeout: 600_000, signal: controller.signal },
  )
  await paid(before.nextJobId)
  controller.abort('the user changed their mind')
  await expect(running).rejects.toThrow()
  const jobId = before.nextJobId
  await until(() => mcp.logMessages().includes(`run was cancelled while waiting for job "${jobId}"`), 'the cancellation log line')
  expect(mcp.logMessages()).toMatch(new RegExp(`run was cancelled while waiting for job "${jobId}", created and paid in transaction "0x[0-9a-f]{64}"`))

  const job = JobSchema.parse(JSON.parse(textOf(await mcp.call('get_job', { jobId: jobId.toString() }))))
  expect(job.stateName).toBe('Pending')
  const after = await snapshot(buyer)
  expect(after.nonce).toBe(before.nonce + 1)
})

test('a closed stdio aborts the wait: the log names the paid job and the server exits', async () => {
  const key = accountKey(28)
  const buyer = privateKeyToAccount(key).address
  const mcp = await startServer({ MARKET_PRIVATE_KEY: key, MARKET_REQUIRE_TEE: acceptsUnserved })
  const before = await snapshot(buyer)
  const running = mcp.call('run', { serviceId: unservedServiceId, prompt: 'Hang up on me.', timeoutSec: 600 })
  running.catch(() => {})
  await paid(before.nextJobId)
  const started = performance.now()
  await mcp.close()
  await until(() => mcp.logMessages().includes(`run was cancelled while waiting for job "${before.nextJobId}"`), 'the cancellation log line')
  // The client transport kills a server that has not exited 2 s after its stdin closed.
  expect(performance.now() - started).toBeLessThan(2_000)
})

test('the answer to createJob is lost on the way back: run finds its job, and creates only that one', async () => {
  const key = accountKey(25)
  const buyer = privateKeyToAccount(key).address
  const proxy = await startInterceptingRpc({
    target: devnet.rpcUrl,
    async intercept(request, forward) {
      const answer = await forward()
      return request.method === 'eth_sendRawTransaction' ? 'drop' : answer
    },
  })
  try {
    const mcp = await startServer({ MARKET_PRIVATE_KEY: key, RPC_URL: proxy.url })
    const before = await snapshot(buyer)
    const result = await mcp.call('run', { serviceId: servedServiceId, prompt: 'Count to three.', timeoutSec: 60 })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    const response = RunResultSchema.parse(JSON.parse(textOf(result)))
    expect(response).toMatchObject({ jobId: before.nextJobId.toString(), verified: { ok: true } })
    const after = await snapshot(buyer)
    expect(after.nextJobId).toBe(before.nextJobId + 1n)
    expect(after.nonce).toBe(before.nonce + 1)
  } finally {
    await proxy.stop()
  }
})

test("an output that does not hash to the job's outputRootHash is withheld", async () => {
  const key = accountKey(26)
  const forger = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ output: 'forged answer' }))
  })
  await new Promise<void>((resolve) => forger.listen(0, '127.0.0.1', resolve))
  try {
    const { port } = forger.address() as AddressInfo
    const mcp = await startServer({ MARKET_PRIVATE_KEY: key, MARKET_OUTPUT_URL: `http://127.0.0.1:${port}/outputs/{jobId}` })
    const result = await mcp.call('run', { serviceId: servedServiceId, prompt: 'Name a colour.', timeoutSec: 60 })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    const response = RunResultSchema.parse(JSON.parse(textOf(result)))
    expect(response.verified.ok).toBe(true)
    expect(response).not.toHaveProperty('output')
    const job = JobSchema.parse(JSON.parse(textOf(await mcp.call('get_job', { jobId: response.jobId }))))
    expect(response.outputNote).toBe(
      `The seller's output hashes to ${keccak256(stringToBytes('forged answer'))}, not to the job's on-chain outputRootHash ${job.outputRootHash}, so it was withheld.`,
    )
    expect(mcp.logMessages()).toContain(`run: output of job ${response.jobId} omitted: ${response.outputNote}`)
  } finally {
    forger.closeAllConnections()
    await new Promise((resolve) => forger.close(resolve))
  }
})

test('no MARKET_OUTPUT_URL: no output, and outputNote says why', async () => {
  const mcp = await startServer({ MARKET_PRIVATE_KEY: accountKey(27), MARKET_OUTPUT_URL: '', MARKET_OUTPUT_SELLER: '' })
  const result = await mcp.call('run', { serviceId: servedServiceId, prompt: 'Name a planet.', timeoutSec: 60 })
  expect(result.isError ?? false, textOf(result)).toBe(false)
  const response = RunResultSchema.parse(JSON.parse(textOf(result)))
  expect(response.verified.ok).toBe(true)
  expect(response).not.toHaveProperty('output')
  expect(response.outputNote).toBe('MARKET_OUTPUT_URL is not set, so the output was not fetched.')
})

describe('refusals before paying: a clear error and nothing spent', () => {
  let funded: StdioMcp
  const fundedKey = accountKey(21)
  const fundedBuyer = privateKeyToAccount(fundedKey).address

  beforeAll(async () => {
    funded = await startServer({ MARKET_PRIVATE_KEY: fundedKey })
  })

  /** Runs and checks that neither the buyer's balance and nonce nor the escrow's job count moved. */
  async function refused(
    mcp: StdioMcp,
    args: Record<string, unknown>,
    buyer: Address = fundedBuyer,
  ): Promise<string> {
    const before = await snapshot(buyer)
    const result = await mcp.call('run', args)
    expect(result.isError).toBe(true)
    expect(await snapshot(buyer)).toEqual(before)
    return textOf(result)
  }

  test('no MARKET_PRIVATE_KEY', async () => {
    const mcp = await startServer({})
    expect(await refused(mcp, { serviceId: servedServiceId, prompt: 'hi' })).toMatchInlineSnapshot(
      `"MARKET_PRIVATE_KEY is not set: run pays from a buyer wallet, so set it to that wallet's private key (0x + 64 hex digits) in the MCP server's environment. Nothing was spent."`,
    )
  })

  test.each([
    ['too short', '0x1234abcd'],
    ['not hex', `0x${'zz'.repeat(32)}`],
    ['zero', `0x${'00'.repeat(32)}`],
    ['the curve order', '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'],
  ])('a malformed MARKET_PRIVATE_KEY (%s), never echoed', async (_, key) => {
    const mcp = await startServer({ MARKET_PRIVATE_KEY: key })
    const message = await refused(mcp, { serviceId: servedServiceId, prompt: 'hi' })
    expect(message).toContain('MARKET_PRIVATE_KEY is malformed')
    expect(message).not.toContain(key.slice(2, 10))
    expect(mcp.stderr()).not.toContain(key.slice(2, 10))
  })

  test('a key without 0x is accepted (64 hex digits)', async () => {
    const mcp = await startServer({ MARKET_PRIVATE_KEY: fundedKey.slice(2), MARKET_MAX_PRICE_WEI: '1' })
    // Refused for its price, so the key itself was read.
    expect(await refused(mcp, { serviceId: servedServiceId, prompt: 'hi' })).toContain('above the per-call cap: MARKET_MAX_PRICE_WEI allows 1 wei')
  })

  test("a service whose TEE verdict is below MARKET_REQUIRE_TEE, checked by this server: refused before signing, naming the checks", async () => {
    const failedId = String(plannedTeeRecords.find(({ expectedVerdict }) => expectedVerdict === 'failed')!.serviceIndex + 1)
    expect(await refused(funded, { serviceId: failedId, prompt: 'hi' })).toMatch(
      new RegExp(`^Service "${failedId}" has TEE verdict "failed", below what run accepts: MARKET_REQUIRE_TEE is verified \\(the default\\)\\. Checks not passed: .*binding \\(fail\\): The quote's report_data does not name signing address .* Nothing was spent\\.$`),
    )
    const acknowledgedId = String(plannedTeeRecords.find(({ expectedVerdict }) => expectedVerdict === 'acknowledged')!.serviceIndex + 1)
    expect(await refused(funded, { serviceId: acknowledgedId, prompt: 'hi' })).toMatch(/has TEE verdict "acknowledged", below what run accepts: MARKET_REQUIRE_TEE is verified \(the default\)\./)
    const unchecked = await startServer({ MARKET_PRIVATE_KEY: fundedKey, MARKET_REQUIRE_TEE: 'sometimes' })
    expect(await refused(unchecked, { serviceId: failedId, prompt: 'hi' })).toBe('MARKET_REQUIRE_TEE "sometimes" must be verified, acknowledged or off. Nothing was spent.')
  })

  test('a verified service outside the allow-list this server is given (TEE_MRTDS): refused before signing, naming the appraisal', async () => {
    const unlisted = `0x${'ab'.repeat(48)}`
    const appraising = await startServer({ MARKET_PRIVATE_KEY: fundedKey, TEE_MRTDS: unlisted })
    expect(await refused(appraising, { serviceId: servedServiceId, prompt: 'hi' })).toMatch(
      new RegExp(`^Service "${servedServiceId}" has TEE verdict "failed", below what run accepts: .*appraisal \\(fail\\): MRTD 0x[0-9a-f]{96} is not on the allow-list\\. .*Nothing was spent\\.$`),
    )
  })

  test('an unknown service', async () => {
    expect(await refused(funded, { serviceId: '999', prompt: 'hi' })).toBe('Service "999" could not be found.')
  })

  test('an inactive service', async () => {
    expect(await refused(funded, { serviceId: delistedServiceId, prompt: 'hi' })).toBe(
      `Service "${delistedServiceId}" is not active: it accepts no new jobs. Nothing was spent.`,
    )
  })

  test('a prompt over maxInputBytes, counted in UTF-8 bytes', async () => {
    const { maxInputBytes } = plannedServices[smallest]!
    // Two bytes per character: fewer characters than the limit, more bytes.
    const prompt = 'é'.repeat(Number(maxInputBytes) / 2 + 1)
    expect(prompt.length).toBeLessThan(Number(maxInputBytes))
    expect(await refused(funded, { serviceId: String(smallest + 1), prompt })).toBe(
      `The prompt is ${Number(maxInputBytes) + 2} bytes (UTF-8) but service "${smallest + 1}" accepts at most ${maxInputBytes}. Nothing was spent.`,
    )
  })

  test('a balance below 0.005 native token (a fresh, unfunded key)', async () => {
    const key = keccak256(stringToHex('tee-market test: an unfunded buyer'))
    const buyer = privateKeyToAccount(key).address
    const mcp = await startServer({ MARKET_PRIVATE_KEY: key })
    expect(await refused(mcp, { serviceId: servedServiceId, prompt: 'hi' }, buyer)).toBe(
      `Buyer "${buyer}" holds 0 wei but needs at least 5000000000000000 wei (the minimum buyer balance of 0.005 native token). Nothing was spent.`,
    )
  })

  test('a balance that covers the price but not the gas', async () => {
    // A service priced at the 0.005 floor, and a buyer holding the floor plus 1 wei.
    const sellerAccount = mnemonicToAccount(devnetMnemonic, { addressIndex: 22 })
    const sellerWallet = createWalletClient({ account: sellerAccount, chain: hardhat, transport: http(devnet.rpcUrl) })
    const serviceId = await publicClient().readContract({
      address: devnet.deployment.registry,
      abi: registryAbi,
      functionName: 'nextServiceId',
    })
    const price = parseEther('0.005')
    await publicClient().waitForTransactionReceipt({
      hash: await sellerWallet.writeContract({
        address: devnet.deployment.registry,
        abi: registryAbi,
        functionName: 'registerService',
        args: [
          keccak256(stringToHex('capability: chat')),
          'pricey-model',
          sellerAccount.address,
          sellerAccount.address,
          'pricey-provider',
          'centralized',
          true,
          price,
          1_024n,
          stringToHex('ipfs://pricey'),
        ],
      }),
    })
    const key = keccak256(stringToHex('tee-market test: a buyer short of gas'))
    const buyer = privateKeyToAccount(key).address
    await publicClient().waitForTransactionReceipt({
      hash: await sellerWallet.sendTransaction({ to: buyer, value: price + 1n }),
    })
    // The service registered here has no TEE record; what is under test is the balance check.
    const mcp = await startServer({ MARKET_PRIVATE_KEY: key, MARKET_REQUIRE_TEE: 'off' })
    const message = await refused(mcp, { serviceId: serviceId.toString(), prompt: 'hi' }, buyer)
    expect(message).toMatch(
      new RegExp(`^Buyer "${buyer}" holds ${price + 1n} wei but needs at least \\d+ wei \\(the service price plus estimated gas\\)\\. Nothing was spent\\.$`),
    )
  })

  test('a price above MARKET_MAX_PRICE_WEI', async () => {
    const mcp = await startServer({ MARKET_PRIVATE_KEY: fundedKey, MARKET_MAX_PRICE_WEI: '999999999999999' })
    expect(await refused(mcp, { serviceId: servedServiceId, prompt: 'hi' })).toBe(
      `Service "1" costs ${plannedServices[0]!.pricePerCall} wei (0.001 native token) per call, above the per-call cap: MARKET_MAX_PRICE_WEI allows 999999999999999 wei (0.000999999999999999 native token) per call. Only the person running this server can raise MARKET_MAX_PRICE_WEI, or set it to none, in the server's environment. Nothing was spent.`,
    )
  })

  test.each([
    ['MARKET_MAX_PRICE_WEI', '1e18'],
    ['MARKET_MAX_PRICE_WEI', '-5'],
    ['MARKET_POLL_INTERVAL_MS', 'fast'],
    ['MARKET_OUTPUT_URL', 'http://127.0.0.1:8082/outputs/'],
  ])('a malformed %s (%s)', async (variable, value) => {
    const mcp = await startServer({ MARKET_PRIVATE_KEY: fundedKey, [variable]: value })
    const message = await refused(mcp, { serviceId: servedServiceId, prompt: 'hi' })
    expect(message).toMatch(new RegExp(`^${variable} "${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" must be .+\\. Nothing was spent\\.$`))
  })

  test.each(['MARKET_MAX_PRICE_WEI', 'MARKET_POLL_INTERVAL_MS', 'MARKET_OUTPUT_URL'])(
    'a private key pasted into %s: the message names the variable, never the key',
    async (variable) => {
      const pasted = accountKey(29)
      const mcp = await startServer({ MARKET_PRIVATE_KEY: fundedKey, [variable]: pasted })
      const message = await refused(mcp, { serviceId: servedServiceId, prompt: 'hi' })
      expect(message).toMatch(
        new RegExp(`^${variable} must be .+, got a value of 66 characters, not shown as it may hold a key\\. Nothing was spent\\.$`),
      )
      expect(message).not.toContain(pasted.slice(2, 20))
      expect(mcp.stderr()).not.toContain(pasted.slice(2, 20))
    },
  )

  test.each([
    ['timeoutSec below 30', { timeoutSec: runTimeoutSec.min - 1 }, 'timeoutSec'],
    ['timeoutSec above 86400', { timeoutSec: runTimeoutSec.max + 1 }, 'timeoutSec'],
    ['timeoutSec not an integer', { timeoutSec: 45.5 }, 'timeoutSec'],
    ['timeoutSec a string', { timeoutSec: '60' }, 'timeoutSec'],
    ['an empty prompt', { prompt: '' }, 'prompt'],
    ['no prompt', { prompt: undefined }, 'prompt'],
    ['serviceId "0"', { serviceId: '0' }, 'serviceId'],
  ])('bad arguments: %s', async (_, override, field) => {
    const message = await refused(funded, { serviceId: servedServiceId, prompt: 'hi', ...override })
    expect(message).toContain('Invalid arguments for tool run')
    expect(message).toContain(field)
  })
})

test('a seller that never answers: at expiry the escrow is reclaimed, only gas is lost', async () => {
  const key = accountKey(23)
  const buyer = privateKeyToAccount(key).address
  const mcp = await startServer({ MARKET_PRIVATE_KEY: key, MARKET_REQUIRE_TEE: acceptsUnserved })
  const before = await snapshot(buyer)
  const timeoutSec = runTimeoutSec.min

  const running = mcp.call('run', { serviceId: unservedServiceId, prompt: 'Is anyone there?', timeoutSec })
  // Once the job exists, move the chain's clock past its expiry instead of waiting.
  const client = publicClient()
  while ((await client.readContract({ address: devnet.deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' })) === before.nextJobId) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const testClient = createTestClient({ mode: 'hardhat', chain: hardhat, transport: http(devnet.rpcUrl) })
  await testClient.increaseTime({ seconds: timeoutSec + 1 })
  await testClient.mine({ blocks: 1 })

  const result = await running
  expect(result.isError).toBe(true)
  const jobId = before.nextJobId
  const match = new RegExp(
    `^Job "${jobId}" was not settled before it expired; the escrow was refunded by reclaimExpired in transaction "(0x[0-9a-f]{64})" \\(the job was created in "(0x[0-9a-f]{64})"\\)\\. Only gas was spent\\.$`,
  ).exec(textOf(result))
  expect(match, textOf(result)).not.toBeNull()
  const [, refundHash, createHash] = match as unknown as [string, Hash, Hash]

  const job = JobSchema.parse(JSON.parse(textOf(await mcp.call('get_job', { jobId: jobId.toString() }))))
  expect(job.stateName).toBe('Expired')
  const refund = await client.getTransactionReceipt({ hash: refundHash })
  expect(refund).toMatchObject({ status: 'success', from: buyer.toLowerCase(), to: devnet.deployment.escrow.toLowerCase() })

  const after = await snapshot(buyer)
  expect(after.nextJobId).toBe(before.nextJobId + 1n)
  expect(after.nonce).toBe(before.nonce + 2)
  expect(before.balance - after.balance).toBe(await gasCost([createHash, refundHash]))
})
