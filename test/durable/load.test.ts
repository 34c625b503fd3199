import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fillSyntheticStore } from '../../bench/fillSyntheticStore.ts'
import { EmbeddedDatabaseError } from '../../errors/durable.ts'
import type { Database } from '../../server/durable/Database.ts'
import { followDurableStore } from '../../server/durable/followDurableStore.ts'
import { openDurableStore } from '../../server/durable/openDurableStore.ts'
import { openPgliteDatabase } from '../../server/durable/openPgliteDatabase.ts'
import { openPostgresDatabase } from '../../server/durable/openPostgresDatabase.ts'
import type { StoreReader } from '../../server/store/StoreReader.ts'
import { startTestPostgres, type TestPostgres } from '../support/startTestPostgres.ts'

/*
 * A load reads the jobs page by page (2,000 a page) while it applies the last page: a market of
 * several pages, with ids whose text order is not their order (9 < 10, 999 < 1000), must come
 * back whole and in id order, on both databases, for a restarted writer and for a replica.
 */
const jobs = 4_321
const config = {
  chainId: 31337,
  network: 'devnet' as const,
  registry: '0x0000000000000000000000000000000000000001' as const,
  escrow: '0x0000000000000000000000000000000000000002' as const,
  arbiter: '0x0000000000000000000000000000000000000003' as const,
  pollIntervalMs: 1_000,
}

let postgres: TestPostgres
let dataDir: string
let postgresUrl: string
/** What the writer served when it filled Postgres, for the replica to load. */
let writtenToPostgres: unknown[] = []

beforeAll(async () => {
  postgres = await startTestPostgres()
  dataDir = await mkdtemp(join(tmpdir(), 'tee-market-load-'))
})

afterAll(async () => {
  await postgres?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

/** What a reader serves of every job, in the order the store walks them. */
function servedJobs(store: StoreReader): unknown[] {
  return store.jobList.map(({ job, events }) => ({ job, events }))
}

/** Fills the market in windows of 1,000 jobs with a commit after each, as a back-fill does; returns what it served. */
async function writeMarket(database: Database): Promise<unknown[]> {
  const writer = await openDurableStore({ database, config })
  for (let from = 1; from <= jobs; from += 1_000) {
    fillSyntheticStore(writer.store, { from, to: Math.min(jobs, from + 999) })
    writer.store.advance({ number: BigInt(from), hash: undefined })
    await writer.committer.commit()
  }
  const served = servedJobs(writer.store)
  await database.close()
  return served
}

describe.each([
  ['a data dir (PGlite)', async () => () => openPgliteDatabase(dataDir)],
  [
    'Postgres',
    async () => {
      postgresUrl = await postgres.createDatabase('load_test')
      return () => openPostgresDatabase({ url: postgresUrl, onSessionLost: 'stop' })
    },
  ],
] as const)('%s', (name, prepare) => {
  let database: () => Promise<Database>
  let written: unknown[]

  beforeAll(async () => {
    database = await prepare()
    written = await writeMarket(await database())
    if (name === 'Postgres') writtenToPostgres = written
  })

  test('a restarted writer loads every job, in id order, as the writer served it', async () => {
    const loaded = await openDurableStore({ database: await database(), config })
    try {
      expect(loaded.loaded.jobs).toBe(jobs)
      expect(loaded.store.jobIds).toEqual(Array.from({ length: jobs }, (_, index) => BigInt(index + 1)))
      expect(servedJobs(loaded.store)).toEqual(written)
    } finally {
      await loaded.database.close()
    }
  })
})

test('a replica loads from Postgres what the writer served', async () => {
  const database = await openPostgresDatabase({ url: postgresUrl, onSessionLost: 'stop' })
  const replica = await followDurableStore({ database, config })
  try {
    expect(replica.store.jobList.length).toBe(jobs)
    expect(servedJobs(replica.store)).toEqual(writtenToPostgres)
  } finally {
    await replica.stop()
    await database.close()
  }
})

test("the data dir's database answers on its own thread: a refused statement names the data dir and its SQLSTATE, rolls its transaction back, and the next one works", async () => {
  const folder = await mkdtemp(join(tmpdir(), 'tee-market-worker-'))
  try {
    const database = await openPgliteDatabase(folder)
    await database.query('CREATE TABLE kept (n int PRIMARY KEY)')
    const refused = database.transaction(async (query) => {
      await query('INSERT INTO kept VALUES (1)')
      await query('INSERT INTO kept VALUES (1)')
    })
    await expect(refused).rejects.toBeInstanceOf(EmbeddedDatabaseError)
    await expect(refused).rejects.toMatchObject({ sqlState: '23505', message: expect.stringContaining(folder) })
    expect(await database.query<{ n: number }>('SELECT count(*)::int AS n FROM kept')).toEqual([{ n: 0 }])
    await database.close()
    const reopened = await openPgliteDatabase(folder)
    expect(await reopened.query<[number]>('SELECT count(*)::int FROM kept', [], { rowMode: 'array' })).toEqual([[0]])
    await reopened.close()
    await expect(reopened.query('SELECT 1')).rejects.toBeInstanceOf(EmbeddedDatabaseError)
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
})
