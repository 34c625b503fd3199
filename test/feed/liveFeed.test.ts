import { createPublicClient, http, parseEther } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import type { MarketDriver } from '../indexer/support/createMarketDriver.ts'
import type { SpawnedEntryPoint } from '../rest/spawnEntryPoint.ts'
import { eventually } from '../support/eventually.ts'
import { serveOwnDevnet } from '../support/serveOwnDevnet.ts'
import { openEventStream, type OpenedEventStream, type ReceivedEvent } from '../support/openEventStream.ts'

// `npm run serve` as an operator runs it, at its default settings, over a devnet of the test's
// own (it mines, snapshots and reverts). Every event is checked against what REST answers, read
// by plain fetch, and against the chain: the oracle shares no code with the feed.

let devnet: StartDevnetReturnType
let market: MarketDriver
let serve: SpawnedEntryPoint
let baseUrl: string
const streams: OpenedEventStream[] = []

beforeAll(async () => {
  ;({ devnet, market, serve, baseUrl } = await serveOwnDevnet())
})

// One address holds at most 8 streams (--max-client-streams): each test closes its own.
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close()
})

afterAll(async () => {
  expect(await serve?.stop()).toBe(0)
  await devnet?.stop()
})

async function open(path: string, headers: Record<string, string> = {}): Promise<OpenedEventStream> {
  const stream = await openEventStream(`${baseUrl}${path}`, { headers })
  streams.push(stream)
  expect(stream.status, stream.text).toBe(200)
  return stream
}

async function rest(path: string): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`)
  expect(response.status, path).toBe(200)
  return response.json()
}


const isJob = (jobId: bigint, stateName?: string) => (event: ReceivedEvent) =>
  event.event === 'job' && event.data.jobId === String(jobId) && (stateName === undefined || event.data.job?.stateName === stateName)

/** The records a client holds after applying `events` in order: whole records replace, `removed` deletes. */
function applyEvents(events: readonly ReceivedEvent[]): Map<string, unknown> {
  const view = new Map<string, unknown>()
  for (const { event, data } of events) {
    if (event !== 'job' && event !== 'service') continue
    const key = `${event} ${data.jobId ?? data.serviceId}`
    if (data.change === 'removed') view.delete(key)
    else view.set(key, data[event])
  }
  return view
}

test('default: a job created, settled (attested and settled in one transaction) and disputed reaches a stream as three job events, in order, each what REST answers then', async () => {
  const stream = await open('/v1/events')
  expect(stream.status).toBe(200)
  expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8')
  expect(stream.headers['cache-control']).toBe('no-cache, no-transform')
  expect(stream.headers['content-encoding']).toBeUndefined()
  expect(stream.text.startsWith('retry: ')).toBe(true)
  expect(await (await fetch(`${baseUrl}/metrics`)).text()).toMatch(/^feed_streams{service="rest"} 1$/m)

  const serviceId = await market.registerService()
  const registered = await stream.waitFor((event) => event.event === 'service' && event.data.serviceId === String(serviceId))
  expect(registered.data).toMatchObject({ change: 'created' })
  expect(registered.data.service).toEqual(await rest(`/v1/services/${serviceId}`))

  const jobId = await market.createJob({ serviceId })
  const created = await stream.waitFor(isJob(jobId))
  expect(created.data.job).toEqual(await rest(`/v1/jobs/${jobId}`))
  await market.settleJob(jobId)
  const settled = await stream.waitFor(isJob(jobId, 'Settled'))
  expect(settled.data.job).toEqual(await rest(`/v1/jobs/${jobId}`))
  await market.disputeJob(jobId)
  const disputed = await stream.waitFor(isJob(jobId, 'Disputed'))
  expect(disputed.data.job).toEqual(await rest(`/v1/jobs/${jobId}`))

  const jobEvents = stream.events.filter(isJob(jobId))
  expect(jobEvents.map(({ data }) => [data.change, data.job.stateName])).toEqual([
    ['created', 'Pending'],
    ['updated', 'Settled'],
    ['updated', 'Disputed'],
  ])
  // Each is positioned at the log that last changed the job, and its id says so.
  for (const { id, data } of jobEvents) {
    const last = data.job.events.at(-1)
    expect(data.position).toEqual({ blockNumber: last.blockNumber, logIndex: last.logIndex })
    expect(id).toMatch(new RegExp(`^31337-${last.blockNumber}-[0-9a-f]{16}-${last.logIndex}$`))
  }
  // A head follows each indexed block, with the block's hash as the chain has it.
  const chain = createPublicClient({ transport: http(devnet.rpcUrl) })
  const heads = stream.events.filter(({ event }) => event === 'head')
  expect(heads.length).toBeGreaterThanOrEqual(3)
  for (const { id, data } of heads) {
    const block = await chain.getBlock({ blockNumber: BigInt(data.blockNumber) })
    expect(data.blockHash).toBe(block.hash)
    expect(id).toBe(`31337-${data.blockNumber}-${block.hash.slice(2, 18)}-h`)
  }
  const blocks = heads.map(({ data }) => BigInt(data.blockNumber))
  expect(blocks).toEqual([...blocks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
})

test('default: resuming with Last-Event-ID, or ?after= for clients that cannot set it, replays every event after the id in order, then goes live', async () => {
  const first = await open('/v1/events')
  const serviceId = await market.registerService()
  const jobId = await market.createJob({ serviceId })
  const created = await first.waitFor(isJob(jobId))
  await market.settleJob(jobId)
  await first.waitFor(isJob(jobId, 'Settled'))
  const after = first.events.slice(first.events.indexOf(created) + 1)

  const byHeader = await open('/v1/events', { 'last-event-id': created.id as string })
  const byQuery = await open(`/v1/events?after=${created.id}`)
  for (const resumed of [byHeader, byQuery]) {
    await resumed.waitFor(isJob(jobId, 'Settled'))
    expect(resumed.events.slice(0, after.length)).toEqual(after)
  }
  const next = await market.createJob({ serviceId })
  for (const stream of [first, byHeader, byQuery]) expect((await stream.waitFor(isJob(next))).data.job).toEqual(await rest(`/v1/jobs/${next}`))
})

test('default: a client cut off before a reorg resumes with its last id: reorg first, then the corrected and removed records, and its view equals REST', async () => {
  // Open before the job is made: a stream without an id hears only what comes after it.
  const throughout = await open('/v1/events')
  const cut = await open('/v1/events')
  const serviceId = await market.registerService()
  const kept = await market.createJob({ serviceId })
  await cut.waitFor(isJob(kept))
  await eventually(async () => expect(await rest(`/v1/jobs/${kept}`)).toMatchObject({ stateName: 'Pending' }))
  const snapshot = await market.snapshot()
  await market.settleJob(kept)
  const given = await market.createJob({ serviceId, amount: parseEther('0.02') })
  await cut.waitFor(isJob(given))
  await cut.waitFor(isJob(kept, 'Settled'))
  const lastId = cut.events.findLast(({ id }) => id !== undefined)?.id as string
  const seenBeforeCut = [...cut.events]
  cut.close()

  // The other branch: the settlement and the second job never happened; two empty blocks instead.
  await market.revert(snapshot)
  await market.mine(3)
  await eventually(async () => {
    expect(await rest(`/v1/jobs/${kept}`)).toMatchObject({ stateName: 'Pending' })
    expect((await fetch(`${baseUrl}/v1/jobs/${given}`)).status).toBe(404)
  })

  const resumed = await open('/v1/events', { 'last-event-id': lastId })
  await resumed.waitFor((event) => event.event === 'job' && event.data.jobId === String(given) && event.data.change === 'removed')
  const [reorg] = resumed.events
  expect(reorg?.event).toBe('reorg')
  expect(reorg?.id).toBeUndefined()
  expect(reorg?.data.depth).toBeGreaterThanOrEqual(1)
  const chain = createPublicClient({ transport: http(devnet.rpcUrl) })
  expect((await chain.getBlock({ blockNumber: BigInt(reorg?.data.ancestor.blockNumber) })).hash).toBe(reorg?.data.ancestor.blockHash)
  const view = applyEvents([...seenBeforeCut, ...resumed.events])
  expect(view.get(`job ${kept}`)).toEqual(await rest(`/v1/jobs/${kept}`))
  expect(view.has(`job ${given}`)).toBe(false)

  // A stream that stayed connected saw the same: the reorg as it happened, then the corrections.
  await throughout.waitFor((event) => event.event === 'job' && event.data.jobId === String(given) && event.data.change === 'removed')
  const live = throughout.events
  const reorgAt = live.findIndex(({ event }) => event === 'reorg')
  expect(reorgAt).toBeGreaterThan(0)
  expect(live.slice(reorgAt + 1).find(isJob(kept))?.data.job).toEqual(await rest(`/v1/jobs/${kept}`))
})

describe('ids it cannot replay from', () => {
  test('default: an id of another chain, one older than the kept events and one of a block not on the chain each get one reset with an id to resume from, then the stream goes live', async () => {
    const chain = createPublicClient({ transport: http(devnet.rpcUrl) })
    const head = await chain.getBlock({ blockTag: 'latest' })
    const cases = [
      ['other_chain', `1-${head.number}-${head.hash.slice(2, 18)}-h`],
      ['unknown_block', `31337-${head.number}-0000000000000000-h`],
    ] as const
    for (const [reason, id] of cases) {
      const stream = await open('/v1/events', { 'last-event-id': id })
      const reset = await stream.waitFor(({ event }) => event === 'reset')
      expect(stream.events[0]).toBe(reset)
      expect(reset.data).toMatchObject({ reason, cursor: reset.id })
      expect(reset.data.message).toContain('Read the REST API again')
      const serviceId = await market.registerService()
      await stream.waitFor((event) => event.event === 'service' && event.data.serviceId === String(serviceId))
    }
  })

  test('default: an id from before the feed started (block 1, witnessed by a later block) is too old', async () => {
    const chain = createPublicClient({ transport: http(devnet.rpcUrl) })
    const head = await chain.getBlock({ blockTag: 'latest' })
    const stream = await open('/v1/events', { 'last-event-id': `31337-1-${head.hash.slice(2, 18)}-0` })
    expect((await stream.waitFor(({ event }) => event === 'reset')).data.reason).toBe('cursor_too_old')
  })
})

test('default: the filters combine with AND, and heads come to every stream', async () => {
  const serviceId = await market.registerService()
  const byJobs = await open('/v1/events?jobs=999999')
  const byService = await open(`/v1/events?serviceId=${serviceId}&types=job`)
  const servicesOnly = await open('/v1/events?types=service')
  const jobId = await market.createJob({ serviceId })
  const job = (await byService.waitFor(isJob(jobId))).data.job
  const byBuyer = await open(`/v1/events?buyer=${job.buyer.toLowerCase()}&jobs=${jobId}`)
  await market.settleJob(jobId)
  await byBuyer.waitFor(isJob(jobId, 'Settled'))
  const other = await market.registerService()
  await servicesOnly.waitFor((event) => event.event === 'service' && event.data.serviceId === String(other))
  await byJobs.waitFor(({ event, data }) => event === 'head' && BigInt(data.blockNumber) >= BigInt(job.events[0].blockNumber) + 2n)
  expect(byJobs.events.filter(({ event }) => event !== 'head')).toEqual([])
  expect(byService.events.every(({ event, data }) => event === 'head' || (event === 'job' && data.job.serviceId === String(serviceId)))).toBe(true)
  expect(servicesOnly.events.every(({ event }) => event === 'head' || event === 'service')).toBe(true)
  expect(byBuyer.events.filter(({ event }) => event === 'job').map(({ data }) => data.jobId)).toEqual([String(jobId)])
})

test('default: a bad filter or id is a JSON 400 that says what is allowed, before any stream', async () => {
  const cases: [string, Record<string, string>, string][] = [
    ['/v1/events?jobs=1,x', {}, 'jobs'],
    ['/v1/events?types=heads', {}, 'types'],
    ['/v1/events?sellers=0x1', {}, 'sellers'],
    ['/v1/events?after=31337-1-zz-0', {}, 'after'],
    ['/v1/events', { 'last-event-id': 'yesterday' }, 'Last-Event-ID'],
  ]
  for (const [path, headers, named] of cases) {
    const response = await fetch(`${baseUrl}${path}`, { headers })
    expect(response.status, path).toBe(400)
    expect(response.headers.get('content-type')).toContain('application/json')
    const { error } = (await response.json()) as { error: { code: string; message: string } }
    expect(error.message, path).toContain(named)
  }
})
