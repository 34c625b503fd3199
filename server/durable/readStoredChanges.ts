import { StoredRecordError } from '../../errors/durable.ts'
import type { JobSnapshot, ServiceSnapshot, SyncSnapshot } from '../store/StoreWriter.ts'
import type { Database } from './Database.ts'
import { jobFromJson, serviceFromJson, syncFromJson } from './storedJson.ts'

export type StoredRecords<snapshot> = Iterable<readonly [bigint, snapshot | undefined]> & { readonly count: number }

export type StoredChanges = {
  /** The revision these changes bring the store to. */
  revision: bigint
  /** When the writer committed that revision (epoch ms); undefined before its first commit. */
  committedAt: number | undefined
  /**
   * Records written after `since`, each with its snapshot or undefined when it is gone. Each is
   * decoded as it is taken, once: a load of every record then never holds all of them decoded.
   */
  services: StoredRecords<ServiceSnapshot>
  jobs: StoredRecords<JobSnapshot>
  /** Where indexing stood at `revision`; undefined before the writer's first commit. */
  sync: SyncSnapshot | undefined
  /** The other facts of the last commit (the node limits the writer learned). */
  meta: ReadonlyMap<string, string>
}

/**
 * What the writer committed after revision `since` (everything held, with `since` -1), read in one
 * repeatable-read transaction: the rows and the standing of one and the same commit.
 */
export async function readStoredChanges(database: Database, { since }: { since: bigint }): Promise<StoredChanges> {
  return database.transaction(async (query) => {
    if (database.kind === 'postgres') await query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ')
    const metaRows = await query<{ key: string; value: string }>(`SELECT key, value FROM tee_market_meta`)
    const meta = new Map(metaRows.map(({ key, value }) => [key, value]))
    // A first read skips what is gone; later ones need it, to drop what a replica holds.
    const gone = since < 0n ? 'AND snapshot IS NOT NULL' : ''
    const serviceRows = await query<[id: string, snapshot: string | null]>(
      `SELECT service_id::text, snapshot FROM tee_market_services WHERE revision > $1 ${gone} ORDER BY service_id`,
      [since.toString()],
      { rowMode: 'array' },
    )
    const jobRows = await query<[id: string, snapshot: string | null]>(
      `SELECT job_id::text, snapshot FROM tee_market_jobs WHERE revision > $1 ${gone} ORDER BY job_id`,
      [since.toString()],
      { rowMode: 'array' },
    )
    const where = database.where
    const sync = meta.get('sync')
    const committedAt = meta.get('committedAt')
    return {
      revision: BigInt(meta.get('revision') ?? '0'),
      committedAt: committedAt === undefined ? undefined : Number(committedAt),
      services: decodeRows(serviceRows, serviceFromJson, { where, record: 'service' }),
      jobs: decodeRows(jobRows, jobFromJson, { where, record: 'job' }),
      sync: sync === undefined ? undefined : decode(sync, syncFromJson, { where, record: 'sync standing' }),
      meta,
    }
  })
}

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
