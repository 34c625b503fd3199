import { BaseError } from './BaseError.ts'

/** The database holds another market's index: mixing the two would serve wrong records. */
export class StoredMarketMismatchError extends BaseError {
  override name = 'StoredMarketMismatchError'
  constructor({ where, stored, configured }: { where: string; stored: string; configured: string }) {
    super(
      `${where} holds the index of ${stored}, not of the configured ${configured}. Point --data-dir or --database-url at another place, or empty it to index this market there.`,
      { code: 'stored_market_mismatch' },
    )
  }
}

/** Another process writes this data dir: PGlite serves one process, and two writers would lose windows. */
export class DataDirLockedError extends BaseError {
  override name = 'DataDirLockedError'
  constructor({ dataDir, pid }: { dataDir: string; pid: number }) {
    super(`The data dir ${dataDir} is in use by process ${pid}. One process at a time may use a data dir; a shared store with replicas needs --database-url.`, {
      code: 'data_dir_locked',
    })
  }
}

/** What the database holds cannot be read back as a store: it is refused rather than served. */
export class StoredRecordError extends BaseError {
  override name = 'StoredRecordError'
  constructor({ where, record, cause }: { where: string; record: string; cause: unknown }) {
    super(`${where}: the stored ${record} is not readable (${cause instanceof Error ? cause.message : String(cause)}). Empty the store to rebuild it from the chain.`, {
      code: 'stored_record_unreadable',
      cause,
    })
  }
}

/** The writer's database session ended: another indexer may have taken over, so this one stops writing. */
export class WriterSessionLostError extends BaseError {
  override name = 'WriterSessionLostError'
  constructor({ where, cause }: { where: string; cause?: unknown }) {
    super(`The connection to ${where} that holds the writer lock was lost; stopping, as a standby may now be the writer.`, {
      code: 'writer_session_lost',
      cause,
    })
  }
}

/** A statement the data dir's database (PGlite, on its own thread) refused, or that thread stopped. */
export class EmbeddedDatabaseError extends BaseError {
  override name = 'EmbeddedDatabaseError'
  /** The SQLSTATE PGlite gave, when it gave one. */
  readonly sqlState: string | undefined
  constructor({ where, message, sqlState }: { where: string; message: string; sqlState?: string | undefined }) {
    super(`The data dir's database in ${where}: ${message}`, { code: 'embedded_database_failed' })
    this.sqlState = sqlState
  }
}
