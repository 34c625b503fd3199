import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { type Address, type Hash, createPublicClient, createTestClient, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { RunResultSchema } from '../../contract/mcp.ts'
import { plannedServices } from '../../devnet/seed/marketPlan.ts'
import { createBuiltinBackend } from '../../devnet/seller/backends/createBuiltinBackend.ts'
import type { StartReferenceSellerReturnType } from '../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { startSeededSeller } from '../support/startSeededSeller.ts'
import { accountKey } from './support/accountKey.ts'
import { connectStdioMcp, textOf, type StdioMcp } from './support/connectStdioMcp.ts'
import { devnetEnv } from './support/devnetEnv.ts'
import { runEnv } from './support/runEnv.ts'
import { readBuyerChainState } from './support/readBuyerChainState.ts'
import { startInterceptingRpc } from './support/startInterceptingRpc.ts'

// A retry does not pay twice, and concurrent runs do not collide: the real bin over stdio through
// the official MCP client, on a devnet whose reference seller answers only when the test lets it,
// so a run lasts as long as the test needs. What was paid is read from the chain with viem.

/** Served by the reference seller. */
const serviceId = '1'
/** Seed seller #3's: nothing answers its jobs; its TEE verdict is `acknowledged`, which the test that pays it accepts. */
const unservedServiceId = String(plannedServices.findIndex((service) => service.seller === 2) + 1)

let devnet: StartDevnetReturnType
let seller: StartReferenceSellerReturnType
let ledgerFolder: string
const servers: StdioMcp[] = []
/** The seller answers a job only once this is open. */
let sellerGate: { opened: Promise<void>; open: () => void }
const publicClient = () => createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })

/** Holds the jobs paid from now on; those an earlier test held are let through. */
function closeSellerGate(): void {
  sellerGate?.open()
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  sellerGate = { opened, open }
}

async function startServer(key: Hash, extra: Record<string, string> = {}): Promise<StdioMcp> {
  const mcp = await connectStdioMcp({
    env: runEnv(devnet, seller, { key, ledger: join(ledgerFolder, String(servers.length), 'spend.json'), extra }),
  })
  servers.push(mcp)
  return mcp
}

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: true })
  const builtin = createBuiltinBackend()
  closeSellerGate()
  seller = await startSeededSeller(devnet, {
    backend: { name: 'gated', answer: async (request) => (await sellerGate.opened, builtin.answer(request)) },
  })
  ledgerFolder = await mkdtemp(join(tmpdir(), 'tee-market-retry-'))
})

afterAll(async () => {
  sellerGate?.open()
  await Promise.all(servers.map((server) => server.close()))
  await seller?.stop()
  await devnet?.stop()
  if (ledgerFolder !== undefined) await rm(ledgerFolder, { recursive: true, force: true })
})

/** Resolves once job `jobId` exists on chain. */
async function jobCreated(buyer: Address, jobId: bigint): Promise<void> {
  while ((await readBuyerChainState(devnet, buyer)).nextJobId <= jobId) await new Promise((resolve) => setTimeout(resolve, 50))
}

function runCall(mcp: StdioMcp, prompt: string, options: { timeout: number; onprogress?: (progress: { message?: string }) => void }) {
  return mcp.client.callTool({ name: 'run', arguments: { serviceId, prompt, timeoutSec: 120 } }, undefined, options) as Promise<CallToolResult>
}

test('default: a call that timed out after paying, retried, pays once and returns that job saying so', async () => {
  closeSellerGate()
  const key = accountKey(20)
  const buyer = privateKeyToAccount(key).address
  const mcp = await startServer(key)
  const before = await readBuyerChainState(devnet, buyer)
  const prompt = 'Name the largest moon of Saturn.'

  // Shorter than the run (the seller is held): the client gives up and tells the server to cancel.
  await expect(runCall(mcp, prompt, { timeout: 5_000 })).rejects.toThrow(/timed out/i)
  expect(await readBuyerChainState(devnet, buyer)).toEqual({ nextJobId: before.nextJobId + 1n, nonce: before.nonce + 1 })

  const notes: string[] = []
  let noted!: () => void
  const reuseNoted = new Promise<void>((resolve) => (noted = resolve))
  const retry = runCall(mcp, prompt, {
    timeout: 120_000,
    onprogress: ({ message }) => {
      notes.push(message ?? '')
      if (message?.includes('already open')) noted()
    },
  })
  // The retry has found the open job before the seller answers it (or, failing that, paid again).
  await Promise.race([
    reuseNoted,
    jobCreated(buyer, before.nextJobId + 1n).then(() => {
      throw new Error('the retry created a second job')
    }),
  ])
  sellerGate.open()
  const result = await retry
  expect(result.isError ?? false, textOf(result)).toBe(false)
  const response = RunResultSchema.parse(result.structuredContent)
  const jobId = before.nextJobId.toString()
  expect(response).toMatchObject({ jobId, buyer, verified: { ok: true } })
  expect(response.reuseNote).toBe(
    `Job "${jobId}" for this service and prompt was already open, created by this buyer in transaction "${response.txHashes.createJob}" (an earlier run, perhaps one whose call timed out): this call paid nothing and followed that job.`,
  )
  expect(response.output).toBeTypeOf('string')
  expect(notes[0]).toBe(`Job ${jobId} was already open for this prompt; nothing paid, waiting for the seller to settle it.`)
  expect(await readBuyerChainState(devnet, buyer)).toEqual({ nextJobId: before.nextJobId + 1n, nonce: before.nonce + 1 })
})

test('the same prompt run twice at once: one job, the second call follows it', async () => {
  closeSellerGate()
  const key = accountKey(21)
  const buyer = privateKeyToAccount(key).address
  const mcp = await startServer(key)
  const before = await readBuyerChainState(devnet, buyer)
  const prompt = 'Name a metal that is liquid at room temperature.'

  const calls = [runCall(mcp, prompt, { timeout: 120_000 }), runCall(mcp, prompt, { timeout: 120_000 })]
  await jobCreated(buyer, before.nextJobId)
  sellerGate.open()
  const responses = (await Promise.all(calls)).map((result) => {
    expect(result.isError ?? false, textOf(result)).toBe(false)
    return RunResultSchema.parse(result.structuredContent)
  })
  expect(responses.map(({ jobId }) => jobId)).toEqual([before.nextJobId.toString(), before.nextJobId.toString()])
  expect(responses.filter(({ reuseNote }) => reuseNote !== undefined)).toHaveLength(1)
  expect(await readBuyerChainState(devnet, buyer)).toEqual({ nextJobId: before.nextJobId + 1n, nonce: before.nonce + 1 })
})

test('two runs at once with different prompts: both paid, in order, with distinct nonces, neither replaced', async () => {
  sellerGate.open()
  const key = accountKey(22)
  const buyer = privateKeyToAccount(key).address
  const mcp = await startServer(key)
  const before = await readBuyerChainState(devnet, buyer)

  const results = await Promise.all(['What is two plus two?', 'What is three plus three?'].map((prompt) => runCall(mcp, prompt, { timeout: 120_000 })))
  const responses = results.map((result) => {
    expect(result.isError ?? false, textOf(result)).toBe(false)
    return RunResultSchema.parse(result.structuredContent)
  })
  expect(responses.map(({ jobId }) => BigInt(jobId)).toSorted()).toEqual([before.nextJobId, before.nextJobId + 1n])
  expect(responses.every(({ reuseNote }) => reuseNote === undefined)).toBe(true)
  const client = publicClient()
  const transactions = await Promise.all(responses.map(({ txHashes }) => client.getTransaction({ hash: txHashes.createJob })))
  expect(transactions.map(({ nonce }) => nonce).toSorted()).toEqual([before.nonce, before.nonce + 1])
  const receipts = await Promise.all(responses.map(({ txHashes }) => client.getTransactionReceipt({ hash: txHashes.createJob })))
  expect(receipts.map(({ status }) => status)).toEqual(['success', 'success'])
  expect(await readBuyerChainState(devnet, buyer)).toEqual({ nextJobId: before.nextJobId + 2n, nonce: before.nonce + 2 })
})

test('a node that lags on the pending nonce: the next run signs above the one this process saw mined, and is not refused', async () => {
  sellerGate.open()
  const key = accountKey(25)
  const buyer = privateKeyToAccount(key).address
  let firstCount: unknown
  // Answers every pending-nonce question with its first answer, as a node behind its peers would.
  const proxy = await startInterceptingRpc({
    target: devnet.rpcUrl,
    async intercept(request, forward) {
      const answer = await forward()
      if (request.method !== 'eth_getTransactionCount' || request.params?.[1] !== 'pending') return answer
      firstCount ??= answer.result
      return { ...answer, result: firstCount }
    },
  })
  try {
    const mcp = await connectStdioMcp({
      env: devnetEnv(devnet, { MARKET_PRIVATE_KEY: key, RPC_URL: proxy.url, MARKET_POLL_INTERVAL_MS: '100' }),
    })
    servers.push(mcp)
    const before = await readBuyerChainState(devnet, buyer)
    for (const prompt of ['Name an even prime.', 'Name an odd prime.']) {
      const result = await runCall(mcp, prompt, { timeout: 120_000 })
      expect(result.isError ?? false, textOf(result)).toBe(false)
    }
    expect(await readBuyerChainState(devnet, buyer)).toEqual({ nextJobId: before.nextJobId + 2n, nonce: before.nonce + 2 })
  } finally {
    await proxy.stop()
  }
})

describe('a job no longer open is not followed: the same prompt pays again', () => {
  test('settled', async () => {
    sellerGate.open()
    const key = accountKey(23)
    const buyer = privateKeyToAccount(key).address
    const mcp = await startServer(key)
    const before = await readBuyerChainState(devnet, buyer)
    const prompt = 'Name a noble gas.'
    const [first, second] = [await runCall(mcp, prompt, { timeout: 120_000 }), await runCall(mcp, prompt, { timeout: 120_000 })].map((result) => {
      expect(result.isError ?? false, textOf(result)).toBe(false)
      return RunResultSchema.parse(result.structuredContent)
    })
    expect([first!.jobId, second!.jobId]).toEqual([before.nextJobId.toString(), (before.nextJobId + 1n).toString()])
    expect(second).not.toHaveProperty('reuseNote')
    expect(await readBuyerChainState(devnet, buyer)).toEqual({ nextJobId: before.nextJobId + 2n, nonce: before.nonce + 2 })
  })

  test('expired by the chain clock, though still Pending', async () => {
    const key = accountKey(24)
    const buyer = privateKeyToAccount(key).address
    const mcp = await startServer(key, { MARKET_REQUIRE_TEE: 'acknowledged' })
    const before = await readBuyerChainState(devnet, buyer)
    // Nobody answers this seller's jobs: each call is cancelled once it has paid.
    const paidAndCancelled = async (jobId: bigint) => {
      const controller = new AbortController()
      const call = mcp.client.callTool(
        { name: 'run', arguments: { serviceId: unservedServiceId, prompt: 'Is anyone there?', timeoutSec: 30 } },
        undefined,
        { timeout: 120_000, signal: controller.signal },
      )
      await jobCreated(buyer, jobId)
      controller.abort()
      await expect(call).rejects.toThrow()
    }
    await paidAndCancelled(before.nextJobId)
    const testClient = createTestClient({ mode: 'hardhat', chain: hardhat, transport: http(devnet.rpcUrl) })
    await testClient.increaseTime({ seconds: 31 })
    await testClient.mine({ blocks: 1 })
    await paidAndCancelled(before.nextJobId + 1n)
    expect(await readBuyerChainState(devnet, buyer)).toEqual({ nextJobId: before.nextJobId + 2n, nonce: before.nonce + 2 })
  })
})
