import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'
import type { PgliteRequest, PgliteResponse, PgliteWorkerData } from './pgliteWorkerProtocol.ts'

/*
 * The data dir's PGlite, on a thread of its own (see openPgliteDatabase): PGlite is Postgres
 * compiled to WebAssembly and runs every statement synchronously on the thread that holds it, so
 * here a commit or a load's query no longer holds the server's event loop, and a load decodes
 * one page of records while this thread reads the next.
 */
if (parentPort === null) throw new Error('pgliteWorker.ts runs as a worker thread (openPgliteDatabase starts it), not as a program.')
const port = parentPort
const post = (response: PgliteResponse): void => port.postMessage(response)
const failed = (id: number | undefined, error: unknown): PgliteResponse => ({
  type: 'failed',
  id,
  message: error instanceof Error ? error.message : String(error),
  code: typeof (error as { code?: unknown } | null)?.code === 'string' ? (error as { code: string }).code : undefined,
})

const { path } = workerData as PgliteWorkerData
let pglite: PGlite
try {
  pglite = await PGlite.create(path)
} catch (error) {
  post(failed(undefined, error))
  process.exit(1)
}
const unlistens = new Map<string, () => Promise<void>>()

const answer = async (request: PgliteRequest): Promise<PgliteResponse> => {
  switch (request.type) {
    case 'query': {
      const { rows } = await pglite.query(request.sql, request.parameters as unknown[], request.rowMode === 'array' ? { rowMode: 'array' } : undefined)
      return { type: 'done', id: request.id, rows }
    }
    case 'listen':
      if (!unlistens.has(request.channel))
        unlistens.set(request.channel, await pglite.listen(request.channel, (payload) => post({ type: 'notification', channel: request.channel, payload })))
      return { type: 'done', id: request.id }
    case 'unlisten':
      await unlistens.get(request.channel)?.()
      unlistens.delete(request.channel)
      return { type: 'done', id: request.id }
    case 'close':
      await pglite.close()
      return { type: 'done', id: request.id }
  }
}

port.on('message', (request: PgliteRequest) => {
  answer(request).then(post, (error: unknown) => post(failed(request.id, error)))
})
post({ type: 'opened' })
