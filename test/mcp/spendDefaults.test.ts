import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Address, createPublicClient, createWalletClient, http, keccak256, parseEther, stringToHex } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { RunResultSchema } from '../../contract/mcp.ts'
import { devnetMnemonic } from '../../devnet/seed/seedAccounts.ts'
import type { StartReferenceSellerReturnType } from '../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { SpendLedgerSchema, type SpendLedger } from '../../mcp/spend/spendLedgerFile.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { startSeededSeller } from '../support/startSeededSeller.ts'
import { accountKey } from './support/accountKey.ts'
import { connectStdioMcp, textOf, type StdioMcp } from './support/connectStdioMcp.ts'
import { devnetEnv } from './support/devnetEnv.ts'
import { readBuyerChainState } from './support/readBuyerChainState.ts'

// With a key and none of the spend settings (the seed's local entry), `run` still keeps a ledger,
// a 24-hour limit and a per-call cap; `none` lifts them. The real bin over stdio on a devnet, each
// server with a HOME of its own, so the default ledger (~/.tee-market/spend.json) is this test's.

/** Served by the reference seller; 0.001 native token. */
const servedServiceId = '1'

let devnet: StartDevnetReturnType
let seller: StartReferenceSellerReturnType
let homes: string
let price: bigint
const servers: StdioMcp[] = []
const publicClient = () => createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })

/** A server given only the key (and the devnet's addresses), plus `env`, at home in `home`. */
async function startServer(home: string, key: `0x${string}`, env: Record<string, string> = {}): Promise<StdioMcp> {
  const mcp = await connectStdioMcp({
    // MARKET_SPEND_LEDGER empty is unset: the default ledger, under this HOME.
    env: devnetEnv(devnet, { HOME: home, MARKET_SPEND_LEDGER: '', MARKET_PRIVATE_KEY: key, MARKET_POLL_INTERVAL_MS: '100', MARKET_OUTPUT_URL: `${seller.url}/outputs/{jobId}`, ...env }),
  })
  servers.push(mcp)
  return mcp
}

const ledgerPathIn = (home: string) => join(home, '.tee-market', 'spend.json')

async function readLedger(home: string): Promise<SpendLedger> {
  return SpendLedgerSchema.parse(JSON.parse(await readFile(ledgerPathIn(home), 'utf8')))
}

/** A service of its own at `pricePerCall`, registered by an unseeded account: nobody answers its jobs. */
async function registerService(pricePerCall: bigint): Promise<string> {
  const sellerAccount = mnemonicToAccount(devnetMnemonic, { addressIndex: 29 })
  const wallet = createWalletClient({ account: sellerAccount, chain: hardhat, transport: http(devnet.rpcUrl) })
  const serviceId = await publicClient().readContract({ address: devnet.deployment.registry, abi: registryAbi, functionName: 'nextServiceId' })
  const args = [
    keccak256(stringToHex('capability: chat')),
    `pricey-model-${serviceId}`,
    sellerAccount.address,
    sellerAccount.address,
    'pricey-provider',
    'centralized',
    true,
    pricePerCall,
    1_024n,
    stringToHex('ipfs://pricey'),
  ] as const
  await publicClient().waitForTransactionReceipt({
    hash: await wallet.writeContract({ address: devnet.deployment.registry, abi: registryAbi, functionName: 'registerService', args }),
  })
  return serviceId.toString()
}

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: true })
  seller = await startSeededSeller(devnet)
  homes = await mkdtemp(join(tmpdir(), 'tee-market-defaults-'))
  const service = await publicClient().readContract({ address: devnet.deployment.registry, abi: registryAbi, functionName: 'getService', args: [1n] })
  price = service.pricePerCall
})

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await seller?.stop()
  await devnet?.stop()
  if (homes !== undefined) await rm(homes, { recursive: true, force: true })
})

test('default: a key alone pays within the defaults and keeps the ledger; after a restart, the default 24-hour limit refuses and creates no job', async () => {
  const home = join(homes, 'restart')
  const key = accountKey(20)
  const buyer = privateKeyToAccount(key).address
  const first = await startServer(home, key)
  const paid = await first.call('run', { serviceId: servedServiceId, prompt: 'Name a prime number.', timeoutSec: 60 })
  expect(paid.isError ?? false, textOf(paid)).toBe(false)
  RunResultSchema.parse(paid.structuredContent)
  await first.close()

  const ledger = await readLedger(home)
  expect(ledger.entries.map(({ wei, serviceId, buyer: payer }) => ({ wei, serviceId, buyer: payer }))).toEqual([{ wei: price.toString(), serviceId: servedServiceId, buyer }])
  // Earlier payments of this person (another server, an hour ago) leave less than one call of room.
  const earlier = parseEther('0.05') - price - price / 2n
  const at = Date.now() - 60 * 60 * 1_000
  await writeFile(ledgerPathIn(home), JSON.stringify({ version: 1, entries: [{ id: randomUUID(), wei: earlier.toString(), at, serviceId: '2', buyer }, ...ledger.entries] }))

  const restarted = await startServer(home, key)
  const before = await readBuyerChainState(devnet, buyer)
  const refused = await restarted.call('run', { serviceId: servedServiceId, prompt: 'Name another.', timeoutSec: 60 })
  expect(refused.isError).toBe(true)
  expect(textOf(refused)).toBe(
    `MARKET_SPEND_LIMIT_WEI is not set, so run keeps its default limit of 50000000000000000 wei (0.05 native token) of escrow in any 24 hours; ${earlier + price} wei was spent in the last 24 hours and this service costs ${price} wei. Room for it frees up at ${new Date(at + 24 * 60 * 60 * 1_000).toISOString()}. Only the person running this server can raise MARKET_SPEND_LIMIT_WEI, or set it to none, in the server's environment. Nothing was spent.`,
  )
  expect(await readBuyerChainState(devnet, buyer)).toEqual(before)
})

test('default per-call cap: a service above 0.01 native token is refused, naming the default, and nothing is spent', async () => {
  const home = join(homes, 'cap')
  const key = accountKey(21)
  const buyer = privateKeyToAccount(key).address
  const serviceId = await registerService(parseEther('0.02'))
  const mcp = await startServer(home, key)
  const before = await readBuyerChainState(devnet, buyer)
  const result = await mcp.call('run', { serviceId, prompt: 'hi' })
  expect(result.isError).toBe(true)
  expect(textOf(result)).toBe(
    `Service "${serviceId}" costs 20000000000000000 wei (0.02 native token) per call, above the per-call cap: MARKET_MAX_PRICE_WEI is not set, so run keeps its default limit of 10000000000000000 wei (0.01 native token) per call. Only the person running this server can raise MARKET_MAX_PRICE_WEI, or set it to none, in the server's environment. Nothing was spent.`,
  )
  expect(await readBuyerChainState(devnet, buyer)).toEqual(before)
  await expect(readFile(ledgerPathIn(home))).rejects.toThrow(/ENOENT/)
})

describe('none lifts a default, and only that one', () => {
  test('MARKET_MAX_PRICE_WEI=none: the cap is gone, the default 24-hour limit still refuses a price above it', async () => {
    const key = accountKey(22)
    const buyer = privateKeyToAccount(key).address
    const serviceId = await registerService(parseEther('0.06'))
    // The service registered here has no TEE record; what is under test is the spend limit.
    const mcp = await startServer(join(homes, 'no-cap'), key, { MARKET_MAX_PRICE_WEI: 'none', MARKET_REQUIRE_TEE: 'off' })
    const before = await readBuyerChainState(devnet, buyer)
    const result = await mcp.call('run', { serviceId, prompt: 'hi' })
    expect(textOf(result)).toMatch(/^MARKET_SPEND_LIMIT_WEI is not set, so run keeps its default limit of 50000000000000000 wei \(0\.05 native token\) .* Its price alone is above the limit\./)
    expect(await readBuyerChainState(devnet, buyer)).toEqual(before)
  })

  test('MARKET_SPEND_LIMIT_WEI=none: pays past a full day, and the ledger still counts it', async () => {
    const home = join(homes, 'no-limit')
    const key = accountKey(23)
    const buyer = privateKeyToAccount(key).address
    const full = { id: randomUUID(), wei: parseEther('1').toString(), at: Date.now(), serviceId: '2', buyer }
    await mkdir(join(home, '.tee-market'), { recursive: true })
    await writeFile(ledgerPathIn(home), JSON.stringify({ version: 1, entries: [full] }))
    const mcp = await startServer(home, key, { MARKET_SPEND_LIMIT_WEI: 'none' })
    const before = await readBuyerChainState(devnet, buyer)
    const result = await mcp.call('run', { serviceId: servedServiceId, prompt: 'Name a colour.', timeoutSec: 60 })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(await readBuyerChainState(devnet, buyer)).toEqual({ nextJobId: before.nextJobId + 1n, nonce: before.nonce + 1 })
    expect((await readLedger(home)).entries.map(({ wei }) => wei)).toEqual([full.wei, price.toString()])
  })

  test('with both lifted, the ledger is still kept: one that cannot be used refuses the payment', async () => {
    const home = join(homes, 'no-ledger')
    // A file where the ledger's folder should be.
    await mkdir(home, { recursive: true })
    await writeFile(join(home, '.tee-market'), '')
    const key = accountKey(25)
    const buyer = privateKeyToAccount(key).address
    const mcp = await startServer(home, key, { MARKET_SPEND_LIMIT_WEI: 'none', MARKET_MAX_PRICE_WEI: 'none' })
    const before = await readBuyerChainState(devnet, buyer)
    const result = await mcp.call('run', { serviceId: servedServiceId, prompt: 'hi' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe(
      `The spend ledger ${ledgerPathIn(home)} cannot be read (fix its permissions, or point MARKET_SPEND_LEDGER at a file this server can read and write); run refuses to pay while it cannot count the spending. Nothing was spent.`,
    )
    expect(await readBuyerChainState(devnet, buyer)).toEqual(before)
  })

  test.each(['nothing', '-1', '0.05'])('MARKET_SPEND_LIMIT_WEI=%s is refused, saying none is the way to lift it', async (value) => {
    const key = accountKey(24)
    const mcp = await startServer(join(homes, 'malformed'), key, { MARKET_SPEND_LIMIT_WEI: value })
    const result = await mcp.call('run', { serviceId: servedServiceId, prompt: 'hi' })
    expect(textOf(result)).toBe(
      `MARKET_SPEND_LIMIT_WEI "${value}" must be a whole number of wei (digits only, no sign, no leading zeros), or none for no limit. Nothing was spent.`,
    )
  })
})
