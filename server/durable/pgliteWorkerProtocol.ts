/** What the thread that owns the data dir's PGlite is asked (see pgliteWorker.ts). */
export type PgliteRequest =
  | { type: 'query'; id: number; sql: string; parameters: readonly unknown[]; rowMode: 'array' | 'object' }
  | { type: 'listen'; id: number; channel: string }
  | { type: 'unlisten'; id: number; channel: string }
  | { type: 'close'; id: number }

/** What it answers: a request's outcome by its id, or a NOTIFY on a channel listened to. */
export type PgliteResponse =
  | { type: 'opened' }
  | { type: 'done'; id: number; rows?: unknown[] }
  | { type: 'failed'; id: number | undefined; message: string; code: string | undefined }
  | { type: 'notification'; channel: string; payload: string }

/** The worker's start parameters. */
export type PgliteWorkerData = { path: string }
