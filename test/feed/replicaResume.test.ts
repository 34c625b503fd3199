import { afterAll, beforeAll, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { spawnServer, type SpawnedServer } from '../durable/support/spawnServer.ts'
import { createMarketDriver, type MarketDriver } from '../indexer/support/createMarketDriver.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { eventually } from '../support/eventually.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { startTestPostgres, type TestPostgres } from '../support/startTestPostgres.ts'
import { openEventStream, type OpenedEventStream, type ReceivedEvent } from '../support/openEventStream.ts'

// A writer and a read-only replica on one Postgres, as docs/operations.md deploys them behind a
// load balancer: an id one of them sent resumes on the other, in both directions.

let devnet: StartDevnetReturnType
let postgres: TestPostgres
let market: MarketDriver
const servers: SpawnedServer[] = []
const streams: OpenedEventStream[] = []

beforeAll(async () => {
  ;[devnet, postgres] = await Promise.all([startTestDevnet({ seed: false }), startTestPostgres()])
  market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
})

afterAll(async () => {
  for (const stream of streams) stream.close()
  await Promise.all(servers.map((server) => server.stop()))
  await Promise.all([devnet?.stop(), postgres?.stop()])
})

function serve(databaseUrl: string, extra: string[] = []): SpawnedServer {
  const server = spawnServer(['--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment), '--port', '0', '--database-url', databaseUrl, ...extra])
  servers.push(server)
  return server
}

async function open(url: string, headers: Record<string, string> = {}): Promise<OpenedEventStream> {
  const stream = await openEventStream(`${url}/v1/events`, { headers })
  streams.push(stream)
  expect(stream.status, stream.text).toBe(200)
  return stream
}


const isJob = (jobId: bigint, stateName: string) => (event: ReceivedEvent) => event.event === 'job' && event.data.jobId === String(jobId) && event.data.job?.stateName === stateName

test('an id the writer sent resumes on the read-only replica, and one the replica sent resumes on the writer', async () => {
  const databaseUrl = await postgres.createDatabase('feed_replicas')
  const writerUrl = await serve(databaseUrl).ready()
  // No node answers the replica: it reads the database only.
  const replicaUrl = await serve(databaseUrl, ['--rpc-url', 'http://127.0.0.1:9', '--read-only']).ready()
  await eventually(async () => expect((await fetch(`${replicaUrl}/v1/events`, { method: 'HEAD' })).status).toBe(200))

  const onWriter = await open(writerUrl)
  const onReplica = await open(replicaUrl)
  const serviceId = await market.registerService()
  const jobId = await market.createJob({ serviceId })
  const createdOnWriter = await onWriter.waitFor(isJob(jobId, 'Pending'))
  const createdOnReplica = await onReplica.waitFor(isJob(jobId, 'Pending'))
  // The same change, at the same chain position, whichever server sent it.
  expect(createdOnReplica.data).toEqual(createdOnWriter.data)

  await market.settleJob(jobId)
  const settledOnWriter = await onWriter.waitFor(isJob(jobId, 'Settled'))
  await onReplica.waitFor(isJob(jobId, 'Settled'))

  const writerIdOnReplica = await open(replicaUrl, { 'last-event-id': createdOnWriter.id as string })
  const replicaIdOnWriter = await open(writerUrl, { 'last-event-id': createdOnReplica.id as string })
  for (const resumed of [writerIdOnReplica, replicaIdOnWriter]) {
    const settled = await resumed.waitFor(isJob(jobId, 'Settled'))
    expect(settled.data).toEqual(settledOnWriter.data)
    // Nothing before the id comes again, and no reset: the id meant the same there.
    expect(resumed.events.filter(isJob(jobId, 'Pending'))).toEqual([])
    expect(resumed.events.filter(({ event }) => event === 'reset' || event === 'reorg')).toEqual([])
  }
})
