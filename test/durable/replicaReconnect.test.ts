import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillSyntheticStore } from '../../bench/fillSyntheticStore.ts'
import { followDurableStore } from '../../server/durable/followDurableStore.ts'
import { openDurableStore } from '../../server/durable/openDurableStore.ts'
import { openPostgresDatabase } from '../../server/durable/openPostgresDatabase.ts'
import type { StoreReader } from '../../server/store/StoreReader.ts'
import { startTestPostgres, type TestPostgres } from '../support/startTestPostgres.ts'

const config = {
  chainId: 31337,
  network: 'devnet' as const,
  registry: '0x0000000000000000000000000000000000000001' as const,
  escrow: '0x0000000000000000000000000000000000000002' as const,
  arbiter: '0x0000000000000000000000000000000000000003' as const,
  pollIntervalMs: 1_000,
}

let postgres: TestPostgres

beforeAll(async () => {
  postgres = await startTestPostgres()
})

afterAll(async () => {
  await postgres?.stop()
})

const servedJobs = (store: StoreReader): unknown[] => store.jobList.map(({ job, events }) => ({ job, events }))

/** Ends every session of that name from another session, as a Postgres restart or a lost network does. */
async function terminateSessions(url: string, applicationName: string): Promise<number> {
  const admin = new pg.Client(url)
  await admin.connect()
  try {
    const { rows } = await admin.query<{ pid: number }>('SELECT pg_terminate_backend(pid) AS ended, pid FROM pg_stat_activity WHERE application_name = $1', [applicationName])
    return rows.length
  } finally {
    await admin.end()
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

test("a replica whose session is ended reconnects at once, listens again, and serves the writer's later commits", async () => {
  const url = await postgres.createDatabase('reconnect_test')
  const writer = await openDurableStore({ database: await openPostgresDatabase({ url, onSessionLost: 'stop', applicationName: 'test writer' }), config })
  const lostSessions: string[] = []
  const replicaDatabase = await openPostgresDatabase({ url, onSessionLost: 'reconnect', onLost: (error) => lostSessions.push(error.message), applicationName: 'test replica' })
  // No safety-net poll within the test: only a NOTIFY (or the reconnect's own look) brings commits.
  const replica = await followDurableStore({ database: replicaDatabase, config, pollIntervalMs: 600_000 })
  try {
    fillSyntheticStore(writer.store, { from: 1, to: 50 })
    writer.store.advance({ number: 1n, hash: undefined })
    await writer.committer.commit()
    await waitFor(() => replica.store.jobList.length === 50, 5_000)

    expect(await terminateSessions(postgres.url, 'test replica')).toBe(1)
    await waitFor(() => lostSessions.length === 1, 5_000)
    fillSyntheticStore(writer.store, { from: 51, to: 120 })
    writer.store.advance({ number: 2n, hash: undefined })
    await writer.committer.commit()
    await waitFor(() => replica.store.jobList.length === 120, 10_000)
    expect(servedJobs(replica.store)).toEqual(servedJobs(writer.store))

    // Listening again: a later commit arrives by its NOTIFY alone.
    fillSyntheticStore(writer.store, { from: 121, to: 130 })
    writer.store.advance({ number: 3n, hash: undefined })
    await writer.committer.commit()
    await waitFor(() => replica.store.jobList.length === 130, 5_000)
    expect(servedJobs(replica.store)).toEqual(servedJobs(writer.store))
    expect(lostSessions).toHaveLength(1)
  } finally {
    await replica.stop()
    await replicaDatabase.close()
    await writer.database.close()
  }
})

test("a writer whose session is ended stops: its next commit fails, naming the database, and it does not reconnect (its lock went with the session)", async () => {
  const url = await postgres.createDatabase('writer_lost_test')
  const lostSessions: string[] = []
  const writer = await openDurableStore({
    database: await openPostgresDatabase({ url, onSessionLost: 'stop', onLost: (error) => lostSessions.push(error.message), applicationName: 'test lost writer' }),
    config,
  })
  try {
    expect(await terminateSessions(postgres.url, 'test lost writer')).toBe(1)
    await waitFor(() => lostSessions.length === 1, 5_000)
    fillSyntheticStore(writer.store, { from: 1, to: 10 })
    writer.store.advance({ number: 1n, hash: undefined })
    await expect(writer.committer.commit()).rejects.toThrow(/session with .* was lost/)
    expect(await terminateSessions(postgres.url, 'test lost writer')).toBe(0)
  } finally {
    await writer.database.close().catch(() => undefined)
  }
})
