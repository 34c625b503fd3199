import { initClient } from '@ts-rest/core'
import { createPublicClient, http, parseAbi, type Hash } from 'viem'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { marketContract } from '../../contract/router.ts'
import { TransactionSchema } from '../../contract/transaction.ts'
import { startRestServer, type RestServer } from './startRestServer.ts'

// The oracle reads the market's logs with the event signatures of the chain interface written out
// here, not through our ABI modules, mappers or store.
const registryEvents = parseAbi([
  'event ServiceRegistered(uint256 indexed serviceId, address indexed seller, uint256 inftTokenId, bytes32 capabilityHash, address signingAddress)',
  'event ServiceUpdated(uint256 indexed serviceId, uint128 newPrice, bool active)',
  'event ServiceDelisted(uint256 indexed serviceId)',
  'event SigningAddressRotated(uint256 indexed serviceId, address oldKey, address newKey)',
])
const escrowEvents = parseAbi([
  'event JobCreated(uint256 indexed jobId, uint256 indexed serviceId, address indexed buyer, bytes32 inputCommitment, uint128 amount, uint64 timeout)',
  'event JobAttested(uint256 indexed jobId, bytes32 outputRootHash, bytes32 chatId, address recoveredSigner)',
  'event JobSettled(uint256 indexed jobId, address indexed seller, uint128 paidToSeller, uint128 protocolFee)',
  'event JobExpired(uint256 indexed jobId, address indexed buyer, uint128 refunded)',
  'event JobDisputed(uint256 indexed jobId, address indexed disputer)',
  'event JobSlashed(uint256 indexed jobId, address indexed slashedSeller, uint128 bondAmount, uint128 toDisputer, uint128 toTreasury, uint128 burned)',
])
// The arbiter's events about a job's dispute; its bond events belong to no job.
const arbiterEvents = parseAbi([
  'event DisputeOpened(uint256 indexed jobId, address indexed disputer, uint128 bond)',
  'event DisputeFailed(uint256 indexed jobId, address indexed disputer, uint128 toSeller, uint128 toTreasury)',
  'event Slashed(uint256 indexed jobId, address indexed disputer, uint128 sellerBondSlashed, uint128 toDisputer, uint128 toTreasury, uint128 burned)',
])
const bondStaked = parseAbi(['event BondStaked(uint256 indexed serviceId, address indexed staker, uint128 newTotal)'])

let server: RestServer
const client = () => initClient(marketContract, { baseUrl: server.baseUrl, baseHeaders: {} })
const { rpcUrl, deployment } = inject('devnet')
const chain = createPublicClient({ transport: http(rpcUrl) })
const fromBlock = BigInt(deployment.deployBlock)

beforeAll(async () => {
  server = await startRestServer()
})
afterAll(() => server.stop())

type Expected = { blockNumber: string; events: { event: string; logIndex: number; jobId?: string; serviceId?: string }[] }

/** Every transaction that emitted a market event, with those events in log order, from the chain's own logs. */
async function marketTransactions(): Promise<Map<Hash, Expected>> {
  const [registry, escrow, arbiter] = await Promise.all([
    chain.getLogs({ address: deployment.registry, events: registryEvents, fromBlock, strict: true }),
    chain.getLogs({ address: deployment.escrow, events: escrowEvents, fromBlock, strict: true }),
    chain.getLogs({ address: deployment.arbiter, events: arbiterEvents, fromBlock, strict: true }),
  ])
  const transactions = new Map<Hash, Expected>()
  const add = (log: { transactionHash: Hash; blockNumber: bigint; logIndex: number; eventName: string }, owner: { jobId: string } | { serviceId: string }) => {
    const expected = transactions.get(log.transactionHash) ?? { blockNumber: String(log.blockNumber), events: [] }
    expected.events.push({ event: log.eventName, logIndex: log.logIndex, ...owner })
    transactions.set(log.transactionHash, expected)
  }
  for (const log of registry) add(log, { serviceId: String(log.args.serviceId) })
  for (const log of [...escrow, ...arbiter]) add(log, { jobId: String(log.args.jobId) })
  for (const expected of transactions.values()) expected.events.sort((a, b) => a.logIndex - b.logIndex)
  return transactions
}

test('default: every transaction that emitted market events answers with those events, each naming its job or service', async () => {
  const transactions = await marketTransactions()
  const kinds = new Set<string>()
  for (const [hash, expected] of transactions) {
    const response = await client().transactions.getTransaction({ params: { hash } })
    expect(response.status, hash).toBe(200)
    const body = TransactionSchema.parse(response.body)
    const block = await chain.getBlock({ blockNumber: BigInt(expected.blockNumber) })
    expect(body, hash).toEqual({
      transactionHash: hash,
      blockNumber: expected.blockNumber,
      timestamp: String(block.timestamp),
      count: expected.events.length,
      events: expected.events,
    })
    for (const { event } of body.events) kinds.add(event)
  }
  // The seeded market registers, updates, delists, rotates, settles (two events in one
  // transaction), expires, disputes and slashes: without them this would check less than it says.
  for (const event of ['ServiceRegistered', 'ServiceUpdated', 'ServiceDelisted', 'SigningAddressRotated', 'JobCreated', 'JobSettled', 'JobExpired', 'DisputeOpened', 'JobSlashed'])
    expect(kinds, event).toContain(event)
  expect([...transactions.values()].some(({ events }) => events.length > 1)).toBe(true)
})

test('a hash in capitals is found, and echoed in lowercase', async () => {
  const [hash] = (await marketTransactions()).keys()
  const response = await client().transactions.getTransaction({ params: { hash: `0x${hash!.slice(2).toUpperCase()}` } })
  expect(response.status).toBe(200)
  expect(response.status === 200 && response.body.transactionHash).toBe(hash)
})

test('a transaction with no market event, and a hash no transaction has: 404 transaction_not_found', async () => {
  // Staking a bond is a real transaction to the arbiter, but none of its events is a job's or a service's.
  const [staked] = await chain.getLogs({ address: deployment.arbiter, events: bondStaked, fromBlock, strict: true })
  if (staked === undefined) throw new Error('the seeded market staked no bond')
  const unknown = `0x${'ab'.repeat(32)}`
  for (const hash of [staked.transactionHash, unknown]) {
    const response = await client().transactions.getTransaction({ params: { hash } })
    expect(response.status).toBe(404)
    expect(response.body).toEqual({
      error: { code: 'transaction_not_found', message: `Transaction "${hash}" could not be found: the indexer holds no market event it emitted.` },
    })
  }
})

test.each([`0x${'a'.repeat(63)}`, 'ab'.repeat(32), `0x${'g'.repeat(64)}`])('a malformed hash %j: 400 saying what a hash is', async (hash) => {
  const response = await client().transactions.getTransaction({ params: { hash } })
  expect(response.status).toBe(400)
  const body = response.body as { error: { code: string; message: string } }
  expect(body.error.code).toBe('invalid_parameter')
  expect(body.error.message).toContain('0x followed by 64 hex digits')
})
