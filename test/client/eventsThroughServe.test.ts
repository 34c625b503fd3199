import { parseEther } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createMarketClient, type MarketClient } from '../../client/createMarketClient.ts'
import { watchJob } from '../../client/watchJob.ts'
import type { MarketEvent } from '../../client/parseFeedEvent.ts'
import type { JobStateName } from '../../contract/job.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import type { MarketDriver } from '../indexer/support/createMarketDriver.ts'
import { startTcpProxy, type TcpProxy } from '../indexer/support/startTcpProxy.ts'
import type { SpawnedEntryPoint } from '../rest/spawnEntryPoint.ts'
import { serveOwnDevnet } from '../support/serveOwnDevnet.ts'

// The typed client through the real entry point: `npm run serve` at its default settings over a
// devnet of the test's own (it mines, snapshots and reverts). Every event is checked against the
// contract's schemas (validateResponse) and against what REST answers.

let devnet: StartDevnetReturnType
let market: MarketDriver
let serve: SpawnedEntryPoint
let proxy: TcpProxy
let baseUrl: string
let client: MarketClient

beforeAll(async () => {
  ;({ devnet, market, serve, baseUrl } = await serveOwnDevnet())
  client = createMarketClient({ baseUrl, validateResponse: true })
  proxy = await startTcpProxy({ target: { host: '127.0.0.1', port: Number(new URL(baseUrl).port) } })
})

afterAll(async () => {
  await proxy?.stop()
  expect(await serve?.stop()).toBe(0)
  await devnet?.stop()
})

/** Follows `events` into an array until `stop()`; `waitFor` resolves with the first event that passes `check`. */
function collect(events: AsyncGenerator<MarketEvent, void, undefined>, controller: AbortController) {
  const received: MarketEvent[] = []
  const done = (async () => {
    for await (const event of events) received.push(event)
  })()
  return {
    received,
    waitFor: async (check: (event: MarketEvent) => boolean): Promise<MarketEvent> => {
      await expect.poll(() => received.some(check)).toBe(true)
      return received.find(check) as MarketEvent
    },
    stop: async (): Promise<void> => {
      controller.abort()
      await done
    },
  }
}

const isJob = (jobId: bigint, { stateName, change }: { stateName?: JobStateName; change?: string } = {}) => (event: MarketEvent) =>
  event.event === 'job' &&
  event.data.jobId === String(jobId) &&
  (stateName === undefined || event.data.job?.stateName === stateName) &&
  (change === undefined || event.data.change === change)

async function rest(jobId: bigint): Promise<unknown> {
  const answer = await client.jobs.getJob({ params: { id: String(jobId) } })
  return answer.status === 200 ? answer.body : answer.status
}

test('default: a job created, settled (attested and settled in one transaction) and disputed reaches client.events as three job events in order, each what REST answers then; watchJob yields the same states', async () => {
  const controller = new AbortController()
  const feed = collect(client.events({}, { signal: controller.signal }), controller)
  // The stream is live once it carries the registration.
  const serviceId = await market.registerService()
  await feed.waitFor((event) => event.event === 'service' && event.data.serviceId === String(serviceId))

  const jobId = await market.createJob({ serviceId })
  const created = await feed.waitFor(isJob(jobId))
  expect(created.data).toMatchObject({ change: 'created' })
  expect(created.event === 'job' && created.data.job).toEqual(await rest(jobId))
  expect(created.id).toMatch(/^31337-\d+-[0-9a-f]{16}-\d+$/)

  const states: JobStateName[] = []
  const watching = (async () => {
    for await (const job of watchJob(client, { jobId, until: ['Disputed'] })) states.push(job.stateName)
  })()
  await expect.poll(() => states).toEqual(['Pending'])

  await market.settleJob(jobId)
  const settled = await feed.waitFor(isJob(jobId, { stateName: 'Settled' }))
  expect(settled.event === 'job' && settled.data.job).toEqual(await rest(jobId))
  await market.disputeJob(jobId)
  const disputed = await feed.waitFor(isJob(jobId, { stateName: 'Disputed' }))
  expect(disputed.event === 'job' && disputed.data.job).toEqual(await rest(jobId))

  expect(feed.received.filter(isJob(jobId)).map((event) => event.event === 'job' && [event.data.change, event.data.job?.stateName])).toEqual([
    ['created', 'Pending'],
    ['updated', 'Settled'],
    ['updated', 'Disputed'],
  ])
  await watching
  expect(states).toEqual(['Pending', 'Settled', 'Disputed'])

  // Another client given the first event's id gets the two after it, as they were sent.
  const resumedController = new AbortController()
  const resumed = collect(client.events({ jobs: [jobId] }, { signal: resumedController.signal, after: created.id }), resumedController)
  await resumed.waitFor(isJob(jobId, { stateName: 'Disputed' }))
  expect(resumed.received.filter(isJob(jobId))).toEqual([settled, disputed])
  await Promise.all([feed.stop(), resumed.stop()])
})

test('default: a client cut off before a reorg resumes by itself with its last id: the reorg, then the corrected and removed records; its view equals REST, nothing it had comes again', async () => {
  const serviceId = await market.registerService()
  const kept = await market.createJob({ serviceId })
  await expect.poll(() => rest(kept)).toMatchObject({ stateName: 'Pending' })
  const viaProxy = createMarketClient({ baseUrl: `http://${proxy.host}`, validateResponse: true })
  const controller = new AbortController()
  const feed = collect(viaProxy.events({ serviceId }, { signal: controller.signal }), controller)
  await market.mine(1)
  await feed.waitFor((event) => event.event === 'head')

  const snapshot = await market.snapshot()
  await market.settleJob(kept)
  const given = await market.createJob({ serviceId, amount: parseEther('0.02') })
  await feed.waitFor(isJob(kept, { stateName: 'Settled' }))
  await feed.waitFor(isJob(given))
  const beforeCut = feed.received.length

  // Cut, and keep the client out while the chain takes another branch.
  proxy.refuse(true)
  proxy.cut()
  await market.revert(snapshot)
  await market.mine(3)
  await expect.poll(() => rest(kept)).toMatchObject({ stateName: 'Pending' })
  await expect.poll(() => rest(given)).toBe(404)
  proxy.refuse(false)

  await feed.waitFor(isJob(given, { change: 'removed' }))
  // Heads of the old branch may still have come before the cut; then the reorg, first of the new connection.
  expect(feed.received.slice(beforeCut).find((event) => event.event !== 'head')?.event).toBe('reorg')
  const view = new Map<string, unknown>()
  for (const event of feed.received) {
    if (event.event !== 'job') continue
    if (event.data.change === 'removed') view.delete(event.data.jobId)
    else view.set(event.data.jobId, event.data.job)
  }
  expect(view.get(String(kept))).toEqual(await rest(kept))
  expect(view.has(String(given))).toBe(false)
  // Resumed from its last id: nothing it had before the cut came again. (After a reorg, the indexer
  // sends corrections twice, without ids and then with the block's "c" id: whole states, harmless.)
  const idsOf = (events: MarketEvent[]): string[] => events.flatMap(({ id }) => (id === undefined ? [] : [id]))
  const before = new Set(idsOf(feed.received.slice(0, beforeCut)))
  expect(idsOf(feed.received.slice(beforeCut)).filter((id) => before.has(id))).toEqual([])
  await feed.stop()
})
