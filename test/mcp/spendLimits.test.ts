import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js'
import { createPublicClient, formatEther, http, type Address } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { RunResultSchema } from '../../contract/mcp.ts'
import type { StartReferenceSellerReturnType } from '../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { SpendLedgerSchema } from '../../mcp/spend/spendLedgerFile.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { startSeededSeller } from '../support/startSeededSeller.ts'
import { accountKey } from './support/accountKey.ts'
import { binPath, connectStdioMcp, projectRoot, textOf, type ConnectStdioMcpParameters, type StdioMcp } from './support/connectStdioMcp.ts'
import { devnetEnv } from './support/devnetEnv.ts'

// The limits only the person sets (spend limit, allow-lists, confirmation), through the official
// MCP client over stdio against the devnet: every refusal leaves the escrow's nextJobId, read
// directly from the contract, where it was.

/** Served by the reference seller, so a paid run settles. */
const serviceId = '1'

let devnet: StartDevnetReturnType
let seller: StartReferenceSellerReturnType
let ledgerFolder: string
let price: bigint
let serviceSeller: Address
const servers: StdioMcp[] = []
const publicClient = () => createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })

async function startServer(env: Record<string, string>, elicit?: ConnectStdioMcpParameters['elicit']): Promise<StdioMcp> {
  const mcp = await connectStdioMcp({
    // A ledger of its own unless the test names one: the ledger is always kept, never in the user's home.
    env: devnetEnv(devnet, {
      MARKET_POLL_INTERVAL_MS: '100',
      MARKET_OUTPUT_URL: `${seller.url}/outputs/{jobId}`,
      MARKET_SPEND_LEDGER: ledgerPath(`server-${servers.length}`),
      ...env,
    }),
    elicit,
  })
  servers.push(mcp)
  return mcp
}

function nextJobId(): Promise<bigint> {
  return publicClient().readContract({ address: devnet.deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' })
}

/** A ledger file of this test's own. */
function ledgerPath(name: string): string {
  return join(ledgerFolder, name, 'spend.json')
}

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: true })
  seller = await startSeededSeller(devnet)
  ledgerFolder = await mkdtemp(join(tmpdir(), 'tee-market-spend-'))
  const service = await publicClient().readContract({ address: devnet.deployment.registry, abi: registryAbi, functionName: 'getService', args: [1n] })
  price = service.pricePerCall
  serviceSeller = service.seller
})

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await seller?.stop()
  await devnet?.stop()
  if (ledgerFolder !== undefined) await rm(ledgerFolder, { recursive: true, force: true })
})

test('default: a run within the limit pays; after a restart, one that would pass the limit is refused and creates no job', async () => {
  const env = { MARKET_PRIVATE_KEY: accountKey(24), MARKET_SPEND_LIMIT_WEI: String(price + price / 2n), MARKET_SPEND_LEDGER: ledgerPath('restart') }
  const first = await startServer(env)
  const paid = await first.call('run', { serviceId, prompt: 'Name a prime number.', timeoutSec: 60 })
  expect(paid.isError ?? false, textOf(paid)).toBe(false)
  const { jobId } = RunResultSchema.parse(JSON.parse(textOf(paid)))
  await first.close()

  const ledger = SpendLedgerSchema.parse(JSON.parse(await readFile(ledgerPath('restart'), 'utf8')))
  expect(ledger.entries.map(({ wei, serviceId: id }) => ({ wei, serviceId: id }))).toEqual([{ wei: price.toString(), serviceId }])

  const restarted = await startServer(env)
  const before = await nextJobId()
  expect(before).toBe(BigInt(jobId) + 1n)
  const refused = await restarted.call('run', { serviceId, prompt: 'Name another.', timeoutSec: 60 })
  expect(refused.isError).toBe(true)
  const freesAt = new Date(ledger.entries[0]!.at + 24 * 60 * 60 * 1_000).toISOString()
  expect(textOf(refused)).toBe(
    `MARKET_SPEND_LIMIT_WEI allows ${price + price / 2n} wei (${formatEther(price + price / 2n)} native token) of escrow in any 24 hours; ${price} wei was spent in the last 24 hours and this service costs ${price} wei. Room for it frees up at ${freesAt}. Only the person running this server can raise MARKET_SPEND_LIMIT_WEI, or set it to none, in the server's environment. Nothing was spent.`,
  )
  expect(await nextJobId()).toBe(before)
})

// End to end only: the servers' RPC calls rarely line up closely enough to collide, so the
// ledger's lock under real contention is shown by spendLedger.test.ts.
test('three servers racing on one ledger (three wallets) cannot together pass the limit', async () => {
  const path = ledgerPath('race')
  const racers = await Promise.all(
    [25, 26, 27].map((index) => startServer({ MARKET_PRIVATE_KEY: accountKey(index), MARKET_SPEND_LIMIT_WEI: String(price), MARKET_SPEND_LEDGER: path })),
  )
  const before = await nextJobId()
  const results = await Promise.all(racers.map((mcp) => mcp.call('run', { serviceId, prompt: 'Race.', timeoutSec: 60 })))
  const paid = results.filter((result) => !(result.isError ?? false))
  expect(paid).toHaveLength(1)
  for (const refused of results.filter((result) => result.isError === true)) expect(textOf(refused)).toMatch(/^MARKET_SPEND_LIMIT_WEI allows .* Nothing was spent\.$/)
  expect(await nextJobId()).toBe(before + 1n)
})

test('a run refused before paying leaves the ledger untouched', async () => {
  const path = ledgerPath('untouched')
  const mcp = await startServer({ MARKET_PRIVATE_KEY: accountKey(24), MARKET_SPEND_LIMIT_WEI: String(price * 10n), MARKET_SPEND_LEDGER: path, MARKET_MAX_PRICE_WEI: '1' })
  expect(textOf(await mcp.call('run', { serviceId, prompt: 'hi' }))).toContain('above the per-call cap: MARKET_MAX_PRICE_WEI allows 1 wei')
  await expect(readFile(path, 'utf8')).rejects.toThrow(/ENOENT/)
})

describe('allow-lists: anything else is refused before any transaction', () => {
  test.each([
    ['MARKET_ALLOWED_SERVICES', '2,3', `Service "1" is not in MARKET_ALLOWED_SERVICES (2, 3); only the person running this server can add it. Nothing was spent.`],
    ['MARKET_ALLOWED_SELLERS', '0x000000000000000000000000000000000000dEaD', ''],
  ])('%s=%s', async (variable, value, message) => {
    const mcp = await startServer({ MARKET_PRIVATE_KEY: accountKey(24), [variable]: value })
    const before = await nextJobId()
    const result = await mcp.call('run', { serviceId, prompt: 'hi' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe(
      message ||
        `Service "1" is sold by ${serviceSeller}, who is not in MARKET_ALLOWED_SELLERS (0x000000000000000000000000000000000000dEaD); only the person running this server can add it. Nothing was spent.`,
    )
    expect(await nextJobId()).toBe(before)
  })

  test('the allowed service from an allowed seller (any letter case) pays', async () => {
    const mcp = await startServer({ MARKET_PRIVATE_KEY: accountKey(28), MARKET_ALLOWED_SERVICES: '1', MARKET_ALLOWED_SELLERS: serviceSeller.toLowerCase() })
    const before = await nextJobId()
    const result = await mcp.call('run', { serviceId, prompt: 'hi', timeoutSec: 60 })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(await nextJobId()).toBe(before + 1n)
  })
})

describe('confirmation above MARKET_CONFIRM_ABOVE_WEI', () => {
  const env = () => ({ MARKET_PRIVATE_KEY: accountKey(28), MARKET_CONFIRM_ABOVE_WEI: String(price - 1n), MARKET_SPEND_LEDGER: ledgerPath('confirm') })

  test('accepted: the person saw service, model, seller, price and spending; the run pays', async () => {
    const asked: ElicitRequest['params'][] = []
    const mcp = await startServer(env(), async (params) => {
      asked.push(params)
      return { action: 'accept', content: {} }
    })
    const before = await nextJobId()
    const result = await mcp.call('run', { serviceId, prompt: 'hi', timeoutSec: 60 })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(await nextJobId()).toBe(before + 1n)
    expect(asked).toHaveLength(1)
    const { modelId, providerIdentity } = await publicClient().readContract({ address: devnet.deployment.registry, abi: registryAbi, functionName: 'getService', args: [1n] })
    expect(asked[0]!.message).toContain(`pay ${price} wei`)
    expect(asked[0]!.message).toContain(`Service: ${serviceId}\nModel (as the seller wrote it): "${modelId}"\nProvider (as the seller wrote it): "${providerIdentity}"\nSeller: ${serviceSeller}\nSpent in the last 24 hours: 0 wei`)
  })

  test.each([
    ['decline', 'The person declined the payment'],
    ['cancel', 'The person dismissed the payment'],
  ] as const)('%s: refused, no job', async (action, message) => {
    const mcp = await startServer(env(), async () => ({ action }))
    const before = await nextJobId()
    const result = await mcp.call('run', { serviceId, prompt: 'hi' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain(message)
    expect(textOf(result)).toContain('Nothing was spent.')
    expect(await nextJobId()).toBe(before)
  })

  test('a client without elicitation: refused with how to raise the threshold, no job', async () => {
    const mcp = await startServer(env())
    const before = await nextJobId()
    const result = await mcp.call('run', { serviceId, prompt: 'hi' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe(
      `This service costs ${price} wei, above MARKET_CONFIRM_ABOVE_WEI (${price - 1n} wei), so the person must confirm it, but this MCP client does not support elicitation. Use a client that does, or have the person raise MARKET_CONFIRM_ABOVE_WEI to at least ${price} in the server's environment. Nothing was spent.`,
    )
    expect(await nextJobId()).toBe(before)
  })
})

describe('settings', () => {
  test.each(['MARKET_SPEND_LIMIT_WEI', 'MARKET_SPEND_LEDGER', 'MARKET_ALLOWED_SERVICES', 'MARKET_ALLOWED_SELLERS', 'MARKET_CONFIRM_ABOVE_WEI'])(
    'a private key pasted into %s: refused, the key never echoed',
    async (variable) => {
      const pasted = accountKey(29)
      const mcp = await startServer({ MARKET_PRIVATE_KEY: accountKey(24), [variable]: pasted })
      const result = await mcp.call('run', { serviceId, prompt: 'hi' })
      expect(textOf(result)).toMatch(new RegExp(`^${variable} must be .+, got a value of 66 characters, not shown as it may hold a key\\. Nothing was spent\\.$`))
      expect(mcp.stderr()).not.toContain(pasted.slice(2, 20))
    },
  )

  test('a ledger that is not a spend ledger: refused rather than reset', async () => {
    const path = ledgerPath('corrupt')
    await mkdir(join(ledgerFolder, 'corrupt'))
    await writeFile(path, '{"entries": "lost"}')
    const mcp = await startServer({ MARKET_PRIVATE_KEY: accountKey(24), MARKET_SPEND_LIMIT_WEI: String(price * 10n), MARKET_SPEND_LEDGER: path })
    const before = await nextJobId()
    const result = await mcp.call('run', { serviceId, prompt: 'hi' })
    expect(textOf(result)).toBe(
      `The spend ledger ${path} is not a spend ledger (fix it, or remove it to start counting afresh); run refuses to pay while it cannot count the spending. Nothing was spent.`,
    )
    expect(await nextJobId()).toBe(before)
  })

  test('--help lists the stdio server\'s own settings, not the REST server\'s', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [binPath, '--help'], { cwd: projectRoot })
    for (const variable of ['MARKET_PRIVATE_KEY', 'MARKET_OUTPUT_URL', 'MARKET_MAX_PRICE_WEI', 'MARKET_SPEND_LIMIT_WEI', 'MARKET_SPEND_LEDGER', 'MARKET_ALLOWED_SERVICES', 'MARKET_ALLOWED_SELLERS', 'MARKET_CONFIRM_ABOVE_WEI']) {
      expect(stdout).toContain(variable)
    }
    for (const flag of ['--port', '--mcp-port', '--seller-port', '--allowed-hosts', '--metrics', '--access-log']) expect(stdout).not.toContain(flag)
  })
})
