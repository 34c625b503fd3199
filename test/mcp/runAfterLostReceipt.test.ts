import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { type Address, type Hash, type Hex, createPublicClient, createTestClient, createWalletClient, http, keccak256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { RunResultSchema } from '../../contract/mcp.ts'
import { seedAccounts } from '../../devnet/seed/seedAccounts.ts'
import type { StartReferenceSellerReturnType } from '../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startSeededSeller } from '../support/startSeededSeller.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { accountKey } from './support/accountKey.ts'
import { connectStdioMcp, textOf, type StdioMcp } from './support/connectStdioMcp.ts'
import { runEnv } from './support/runEnv.ts'
import { readBuyerChainState } from './support/readBuyerChainState.ts'

// A run whose createJob never got its receipt (here: the bin killed while the transaction waits
// in the node's pool, unmined), run again: the real bin over stdio through the official MCP
// client. The spend ledger the two processes share is read as a file; the chain with viem.

/** Served by the reference seller. */
const serviceId = '1'

let devnet: StartDevnetReturnType
let seller: StartReferenceSellerReturnType
let ledgerFolder: string
const servers: StdioMcp[] = []
const testClient = () => createTestClient({ mode: 'hardhat', chain: hardhat, transport: http(devnet.rpcUrl) })
const publicClient = () => createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: true })
  seller = await startSeededSeller(devnet)
  ledgerFolder = await mkdtemp(join(tmpdir(), 'tee-market-lost-receipt-'))
})

afterEach(async () => {
  await testClient().setAutomine(true)
})

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close().catch(() => undefined)))
  await seller?.stop()
  await devnet?.stop()
  if (ledgerFolder !== undefined) await rm(ledgerFolder, { recursive: true, force: true })
})

async function startServer(key: Hex, ledger: string): Promise<StdioMcp> {
  const mcp = await connectStdioMcp({
    env: runEnv(devnet, seller, { key, ledger }),
  })
  servers.push(mcp)
  return mcp
}

function runCall(mcp: StdioMcp, prompt: string): Promise<CallToolResult> {
  return mcp.client.callTool({ name: 'run', arguments: { serviceId, prompt, timeoutSec: 120 } }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>
}

type LedgerEntry = { wei: string; sending?: { transaction: Hex } }
const readLedger = async (path: string): Promise<LedgerEntry[]> => (JSON.parse(await readFile(path, 'utf8')) as { entries: LedgerEntry[] }).entries

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (const startedAt = Date.now(); !(await condition()); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() - startedAt > 60_000) throw new Error(`gave up waiting for ${what}`)
  }
}

const pendingNonce = (buyer: Address) => publicClient().getTransactionCount({ address: buyer, blockTag: 'pending' })

/** A run that has sent its createJob into a pool that mines nothing, then a crash: the hash it left. */
async function sendAndCrash(key: Hex, ledger: string, prompt: string): Promise<Hash> {
  const buyer = privateKeyToAccount(key).address
  const nonce = await pendingNonce(buyer)
  await testClient().setAutomine(false)
  const crashed = await startServer(key, ledger)
  const call = runCall(crashed, prompt).catch(() => 'ended')
  await until(async () => (await pendingNonce(buyer)) === nonce + 1, 'the createJob in the pool')
  crashed.kill()
  expect(await call).toBe('ended')
  const { transactions } = await publicClient().getBlock({ blockTag: 'pending', includeTransactions: true })
  const sent = transactions.filter(({ from }) => from.toLowerCase() === buyer.toLowerCase())
  expect(sent).toHaveLength(1)
  return sent[0]!.hash
}

test('default: run again after a crash while the createJob was unmined, the same transaction is sent again: one job, followed, paid once', async () => {
  const key = accountKey(20)
  const buyer = privateKeyToAccount(key).address
  const ledger = join(ledgerFolder, 'resent', 'spend.json')
  const prompt = 'Name the largest moon of Jupiter.'
  const before = await readBuyerChainState(devnet, buyer)
  const lostHash = await sendAndCrash(key, ledger, prompt)
  // What the ledger kept: the price, and the very bytes that were sent.
  const [kept] = await readLedger(ledger)
  expect(kept?.sending && keccak256(kept.sending.transaction)).toBe(lostHash)

  const mcp = await startServer(key, ledger)
  const retry = runCall(mcp, prompt)
  // The retry sends the earlier bytes again (the log says so) rather than signing the next nonce.
  await Promise.race([
    until(() => mcp.logMessages().includes(`the createJob "${lostHash}" of an earlier run for this service and prompt was never confirmed`), 'the resend'),
    until(async () => (await pendingNonce(buyer)) > before.nonce + 1, 'a second createJob').then(() => {
      throw new Error('the retry signed a second createJob')
    }),
  ])
  await testClient().mine({ blocks: 1 })
  await testClient().setAutomine(true)
  const result = await retry
  expect(result.isError ?? false, textOf(result)).toBe(false)
  const response = RunResultSchema.parse(result.structuredContent)
  expect(response).toMatchObject({ jobId: before.nextJobId.toString(), buyer, verified: { ok: true }, txHashes: { createJob: lostHash } })
  expect(response.reuseNote).toBe(
    `Job "${before.nextJobId}" was created by an earlier run for this service and prompt whose receipt was never read; its transaction "${lostHash}" was sent again as signed: this call paid nothing and followed that job.`,
  )
  expect(await readBuyerChainState(devnet, buyer)).toEqual({ nextJobId: before.nextJobId + 1n, nonce: before.nonce + 1 })
  const entries = await readLedger(ledger)
  expect(entries.map(({ sending }) => sending)).toEqual([undefined])
})

test('an earlier createJob the node refuses for good (its nonce went to another transaction): counted, not sent again, and this run pays once', async () => {
  const key = accountKey(21)
  const account = privateKeyToAccount(key)
  const ledger = join(ledgerFolder, 'refused', 'spend.json')
  const prompt = 'Name the smallest planet.'
  const before = await readBuyerChainState(devnet, account.address)
  const lostHash = await sendAndCrash(key, ledger, prompt)
  // The pool forgets it, and the same nonce pays someone else: those bytes can never be mined.
  await testClient().dropTransaction({ hash: lostHash })
  const wallet = createWalletClient({ account, chain: hardhat, transport: http(devnet.rpcUrl) })
  await wallet.sendTransaction({ to: seedAccounts.sellers[0].address, value: 1n, nonce: before.nonce })
  await testClient().mine({ blocks: 1 })
  await testClient().setAutomine(true)

  const mcp = await startServer(key, ledger)
  const result = await runCall(mcp, prompt)
  expect(result.isError ?? false, textOf(result)).toBe(false)
  const response = RunResultSchema.parse(result.structuredContent)
  expect(response).toMatchObject({ jobId: before.nextJobId.toString(), verified: { ok: true } })
  expect(response).not.toHaveProperty('reuseNote')
  expect(response.txHashes.createJob).not.toBe(lostHash)
  expect(mcp.logMessages()).toMatch(
    new RegExp(`the node refused the earlier createJob "${lostHash}" \\(.+\\): it is not sent again, and the spend ledger keeps counting it as a payment that may have been made`),
  )
  expect(await readBuyerChainState(devnet, account.address)).toEqual({ nextJobId: before.nextJobId + 1n, nonce: before.nonce + 2 })
  const entries = await readLedger(ledger)
  expect(entries.map(({ sending }) => sending)).toEqual([undefined, undefined])
})
