/**
 * One statement's rows, each column as the driver gives it (the queries cast what they read to
 * text): as objects, or as arrays of the columns in order, which both drivers build faster (a load
 * reads every record).
 */
export type Query = {
  <row extends Record<string, unknown>>(sql: string, parameters?: readonly unknown[]): Promise<row[]>
  <row extends readonly unknown[]>(sql: string, parameters: readonly unknown[], options: { rowMode: 'array' }): Promise<row[]>
}

/**
 * The SQL both embedded PGlite and a Postgres server answer: one schema, one set of queries. A
 * transaction runs its statements on one session, in order, and commits only if all succeed.
 */
export type Database = {
  /** Where the data lives, for log lines and errors (a data dir, or a URL without its password). */
  readonly where: string
  readonly kind: 'pglite' | 'postgres'
  query: Query
  transaction<result>(work: (query: Query) => Promise<result>): Promise<result>
  /** Calls `onNotify` for each NOTIFY on `channel` until the returned function is called. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>
  close(): Promise<void>
}
