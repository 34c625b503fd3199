import { StoredRecordError } from '../../errors/durable.ts'
import type { JobSnapshot, ServiceSnapshot, SyncSnapshot } from '../store/StoreWriter.ts'
import type { Database } from './Database.ts'
import { jobFromJson, serviceFromJson, syncFromJson } from './storedJson.ts'

export type StoredRecords<snapshot> = Iterable<readonly [bigint, snapshot | undefined]> & { readonly count: number }

/**
 * Records written after `since`, each with its snapshot or undefined when it is gone, in id
 * order. Each is decoded as it is taken, once: a load of every record never holds all of them
 * decoded, nor all of their text.
 */
export type StoredPage = { kind: 'services'; records: StoredRecords<ServiceSnapshot> } | { kind: 'jobs'; records: StoredRecords<JobSnapshot> }

export type StoredChanges = {
  /** The revision these changes bring the store to. */
  revision: bigint
  /** When the writer committed that revision (epoch ms); undefined before its first commit. */
  committedAt: number | undefined
  /** How many records the pages held. */
  count: { services: number; jobs: number }
  /** Where indexing stood at `revision`; undefined before the writer's first commit. */
  sync: SyncSnapshot | undefined
  /** The other facts of the last commit (the node limits the writer learned). */
  meta: ReadonlyMap<string, string>
}

export type ReadStoredChangesParameters = {
  /** The revision held already; -1 reads everything held. */
  since: bigint
  /** Given each page as it arrives, while the next one is read. */
  take: (page: StoredPage) => void
}

/**
 * Jobs read per statement: the next page is asked for before this one is handed over, so the
 * database reads it (on PGlite's thread, or on the server) while this one is decoded and applied.
 * A page of 2,000 is about 3 MB of text, applied in some 40 ms.
 */
const jobsPerPage = 2_000

/**
 * What the writer committed after revision `since` (everything held, with `since` -1), read in one
 * repeatable-read transaction: the rows and the standing of one and the same commit.
 */
export async function readStoredChanges(database: Database, { since, take }: ReadStoredChangesParameters): Promise<StoredChanges> {
  return database.transaction(async (query) => {
    if (database.kind === 'postgres') await query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ')
    const metaRows = await query<{ key: string; value: string }>(`SELECT key, value FROM tee_market_meta`)
    const meta = new Map(metaRows.map(({ key, value }) => [key, value]))
    const where = database.where
    // A first read skips what is gone; later ones need it, to drop what a replica holds. The ids
    // are named apart from their columns: ORDER BY a name that is also an output column sorts by
    // the output (the text, 10001 before 2), and the store inserts out-of-order jobs one splice each.
    const gone = since < 0n ? 'AND snapshot IS NOT NULL' : ''
    const serviceRows = await query<Row>(
      `SELECT service_id::text AS id, snapshot FROM tee_market_services WHERE revision > $1 ${gone} ORDER BY service_id`,
      [since.toString()],
      { rowMode: 'array' },
    )
    const count = { services: serviceRows.length, jobs: 0 }
    take({ kind: 'services', records: decodeRows(serviceRows, serviceFromJson, { where, record: 'service' }) })
    const readJobs = (after: string): Promise<Row[]> =>
      query<Row>(
        `SELECT job_id::text AS id, snapshot FROM tee_market_jobs WHERE revision > $1 AND job_id > $2 ${gone} ORDER BY job_id LIMIT ${jobsPerPage}`,
        [since.toString(), after],
        { rowMode: 'array' },
      )
    for (let next: Promise<Row[]> | undefined = readJobs('-1'); next !== undefined; ) {
      const rows: Row[] = await next
      const last = rows.at(-1)
      next = rows.length === jobsPerPage && last !== undefined ? readJobs(last[0]) : undefined
      count.jobs += rows.length
      take({ kind: 'jobs', records: decodeRows(rows, jobFromJson, { where, record: 'job' }) })
    }
    const sync = meta.get('sync')
    const committedAt = meta.get('committedAt')
    return {
      revision: BigInt(meta.get('revision') ?? '0'),
      committedAt: committedAt === undefined ? undefined : Number(committedAt),
      count,
      sync: sync === undefined ? undefined : decode(sync, syncFromJson, { where, record: 'sync standing' }),
      meta,
    }
  })
}

type Row = [id: string, snapshot: string | null]

function decodeRows<snapshot>(
  rows: readonly (readonly [string, string | null])[],
  fromJson: (text: string) => snapshot,
  { where, record }: { where: string; record: string },
): StoredRecords<snapshot> {
  return {
    count: rows.length,
    *[Symbol.iterator]() {
      for (const [id, text] of rows) yield [BigInt(id), decode(text, fromJson, { where, record: `${record} ${id}` })] as const
    },
  }
}

function decode<value>(text: string | null, fromJson: (text: string) => value, at: { where: string; record: string }): value | undefined {
  if (text === null) return undefined
  try {
    return fromJson(text)
  } catch (cause) {
    throw new StoredRecordError({ ...at, cause })
  }
}
