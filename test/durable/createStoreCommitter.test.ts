import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { JobSchema } from '../../contract/job.ts'
import { createStoreCommitter } from '../../server/durable/createStoreCommitter.ts'
import type { Database, Query } from '../../server/durable/Database.ts'
import { openDurableStore } from '../../server/durable/openDurableStore.ts'
import { openPgliteDatabase } from '../../server/durable/openPgliteDatabase.ts'
import type { Store } from '../../server/store/createStore.ts'
import { snapshotStore } from '../indexer/support/snapshotStore.ts'

// A window's records are written in statements of a few, a turn of the event loop apart, and
// still in one transaction: a commit is whole or not at all.
const config = {
  chainId: 31337,
  network: 'devnet' as const,
  registry: '0x0000000000000000000000000000000000000001' as const,
  escrow: '0x0000000000000000000000000000000000000002' as const,
  arbiter: '0x0000000000000000000000000000000000000003' as const,
  pollIntervalMs: 3_000,
}
const jobs = 250
const recordsPerStatement = 100

const dataDirs: string[] = []
afterEach(async () => {
  for (const dataDir of dataDirs.splice(0)) await rm(dataDir, { recursive: true, force: true })
})

async function openDataDir(dataDir?: string) {
  const where = dataDir ?? (await mkdtemp(join(tmpdir(), 'tee-market-commit-')))
  if (dataDir === undefined) dataDirs.push(where)
  const database = await openPgliteDatabase(where)
  return { where, database, durable: await openDurableStore({ database, config }) }
}

function fill(store: Store): void {
  for (let id = 1; id <= jobs; id += 1) {
    const jobId = BigInt(id)
    store.putJob({
      jobId,
      job: JobSchema.parse({
        jobId: String(id),
        serviceId: '1',
        buyer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        seller: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
        amount: '1000000000000000',
        protocolFee: '50000000000000',
        createdAt: String(1_700_000_000 + id),
        timeout: String(1_700_086_400 + id),
        state: 0,
        stateName: 'Pending',
        inputCommitment: `0x${id.toString(16).padStart(64, '0')}`,
      }),
    })
    store.addJobEvent({
      jobId,
      event: { event: 'JobCreated', blockNumber: String(10 + id), transactionHash: `0x${id.toString(16).padStart(64, '0')}`, logIndex: 0, timestamp: String(1_700_000_000 + id) },
    })
  }
  store.advance({ number: BigInt(10 + jobs), hash: undefined })
}

/** The same database, whose transactions hand `work` a query that `wrap` may change. */
function wrapQuery(database: Database, wrap: (query: Query) => Query): Database {
  return { ...database, transaction: (work) => database.transaction((query) => work(wrap(query))) }
}

const isJobUpsert = (sql: string): boolean => sql.startsWith('INSERT INTO tee_market_jobs')

test('default', async () => {
  const { where, database, durable } = await openDataDir()
  fill(durable.store)
  const statements: number[] = []
  const counted = wrapQuery(database, (query) =>
    (async (sql: string, parameters?: readonly unknown[]) => {
      if (isJobUpsert(sql)) statements.push((JSON.parse(parameters?.[1] as string) as unknown[]).length)
      return query(sql, parameters)
    }) as Query,
  )
  const committer = createStoreCommitter({ database: counted, store: durable.store, revision: durable.committer.revision, recordsPerStatement })
  await committer.commit()
  expect(statements).toEqual([100, 100, 50])
  const written = snapshotStore(durable.store)
  await database.close()

  const reopened = await openDataDir(where)
  expect(reopened.durable.loaded.jobs).toBe(jobs)
  expect(snapshotStore(reopened.durable.store)).toEqual(written)
  await reopened.database.close()
})

test('the event loop turns between statements', async () => {
  const { database, durable } = await openDataDir()
  fill(durable.store)
  // At each statement an immediate is queued; by the next statement it has run, or the two were
  // built in one turn of the loop.
  const turned: boolean[] = []
  let previous: { ran: boolean } | undefined
  const watched = wrapQuery(database, (query) =>
    (async (sql: string, parameters?: readonly unknown[]) => {
      if (isJobUpsert(sql)) {
        if (previous !== undefined) turned.push(previous.ran)
        const mark = { ran: false }
        previous = mark
        setImmediate(() => {
          mark.ran = true
        })
      }
      return query(sql, parameters)
    }) as Query,
  )
  const committer = createStoreCommitter({ database: watched, store: durable.store, revision: durable.committer.revision, recordsPerStatement })
  await committer.commit()
  expect(turned).toEqual([true, true])
  await database.close()
})

test('a commit that fails part-way writes nothing, and the next writes it all', async () => {
  const { database, durable } = await openDataDir()
  fill(durable.store)
  let failOn: number | undefined = 2
  let jobStatements = 0
  const failing = wrapQuery(database, (query) =>
    (async (sql: string, parameters?: readonly unknown[]) => {
      if (isJobUpsert(sql) && (jobStatements += 1) === failOn) throw new Error('the disk is full')
      return query(sql, parameters)
    }) as Query,
  )
  const committer = createStoreCommitter({ database: failing, store: durable.store, revision: durable.committer.revision, recordsPerStatement })
  const countRows = async (): Promise<number> =>
    Number((await database.query<{ count: string }>('SELECT count(*)::text AS count FROM tee_market_jobs'))[0]?.count)

  await expect(committer.commit()).rejects.toThrow('the disk is full')
  expect(await countRows()).toBe(0)
  expect(committer.revision).toBe(durable.committer.revision)

  failOn = undefined
  await committer.commit()
  expect(await countRows()).toBe(jobs)
  expect(committer.revision).toBe(durable.committer.revision + 1n)
  await database.close()
})
