import { initClient } from '@ts-rest/core'
import { createPublicClient, http, parseAbiItem } from 'viem'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { JobDisputeSchema } from '../../contract/disputeEvent.ts'
import { marketContract } from '../../contract/router.ts'
import { startRestServer, type RestServer } from './startRestServer.ts'

// The oracle reads the escrow's and the arbiter's logs with its own event signatures, not through our mappers.
const escrowEvents = [
  parseAbiItem('event JobDisputed(uint256 indexed jobId, address indexed disputer)'),
  parseAbiItem(
    'event JobSlashed(uint256 indexed jobId, address indexed slashedSeller, uint128 bondAmount, uint128 toDisputer, uint128 toTreasury, uint128 burned)',
  ),
]
const slashed = parseAbiItem(
  'event Slashed(uint256 indexed jobId, address indexed disputer, uint128 sellerBondSlashed, uint128 toDisputer, uint128 toTreasury, uint128 burned)',
)
const arbiterEvents = [
  parseAbiItem('event DisputeOpened(uint256 indexed jobId, address indexed disputer, uint128 bond)'),
  parseAbiItem('event DisputeFailed(uint256 indexed jobId, address indexed disputer, uint128 toSeller, uint128 toTreasury)'),
  slashed,
]

let server: RestServer
const client = () => initClient(marketContract, { baseUrl: server.baseUrl, baseHeaders: {} })

beforeAll(async () => {
  server = await startRestServer()
})
afterAll(() => server.stop())

test("default: every job answers with its dispute's logs, oldest first, with every argument; a job never disputed with none", async () => {
  const { rpcUrl, deployment } = inject('devnet')
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const fromBlock = BigInt(deployment.deployBlock)
  const logs = [
    ...(await chain.getLogs({ address: deployment.escrow, events: escrowEvents, fromBlock, strict: true })),
    ...(await chain.getLogs({ address: deployment.arbiter, events: arbiterEvents, fromBlock, strict: true })),
  ].sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1))
  const jobs = await client().jobs.listJobs({ query: { limit: 1000 } })
  if (jobs.status !== 200) throw new Error(`listJobs answered ${jobs.status}`)
  const outcomes = new Set<string>()
  for (const { jobId } of jobs.body.jobs) {
    const response = await client().jobs.getJobDispute({ params: { id: jobId } })
    expect(response.status).toBe(200)
    const dispute = JobDisputeSchema.parse(response.body)
    const expected = await Promise.all(
      logs
        .filter((log) => log.args.jobId === BigInt(jobId))
        .map(async ({ eventName, blockNumber, transactionHash, logIndex, args }) => {
          const { jobId: _jobId, ...rest } = args
          const block = await chain.getBlock({ blockNumber })
          const values = Object.fromEntries(Object.entries(rest).map(([name, value]) => [name, String(value)]))
          return { event: eventName, blockNumber: String(blockNumber), transactionHash, logIndex, timestamp: String(block.timestamp), ...values }
        }),
    )
    expect(dispute, `job ${jobId}`).toEqual({ jobId, count: expected.length, events: expected })
    for (const { event } of dispute.events) outcomes.add(event)
  }
  // The seeded market has open, failed and slashed disputes: without them this test would check less than it says.
  expect([...outcomes].sort()).toEqual(['DisputeFailed', 'DisputeOpened', 'JobDisputed', 'JobSlashed', 'Slashed'])
  expect(logs.some((log) => log.eventName === 'Slashed' && log.args.toDisputer > 0n)).toBe(true)
})

test("the job's events name the same dispute events, at the same blocks and log indexes", async () => {
  const { rpcUrl, deployment } = inject('devnet')
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const [slash] = await chain.getLogs({ address: deployment.arbiter, event: slashed, fromBlock: BigInt(deployment.deployBlock), strict: true })
  const id = String(slash?.args.jobId)
  const [job, dispute] = await Promise.all([client().jobs.getJob({ params: { id } }), client().jobs.getJobDispute({ params: { id } })])
  if (job.status !== 200 || dispute.status !== 200) throw new Error(`answered ${job.status} and ${dispute.status}`)
  const names = new Set(dispute.body.events.map(({ event }) => event as string))
  const where = ({ event, blockNumber, logIndex }: { event: string; blockNumber: string; logIndex: number }) => `${event}@${blockNumber}:${logIndex}`
  expect(job.body.events.filter(({ event }) => names.has(event)).map(where)).toEqual(dispute.body.events.map(where))
})

test('an unknown job is a 404, a malformed id or an unknown parameter a 400', async () => {
  const unknown = await client().jobs.getJobDispute({ params: { id: '999999' } })
  expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'job_not_found' } } })
  expect((await client().jobs.getJobDispute({ params: { id: '01' } })).status).toBe(400)
  const response = await fetch(`${server.baseUrl}/v1/jobs/9/dispute?limit=1`)
  expect(response.status).toBe(400)
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unknown_parameter')
})
