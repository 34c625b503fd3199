import { mkdir, open, readFile, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { DataDirLockedError } from '../../errors/durable.ts'
import { createSessionQueue } from './createSessionQueue.ts'
import type { Database, Query } from './Database.ts'
import { isProcessAlive } from '../../platform/process/isProcessAlive.ts'
import { startPgliteWorker } from './startPgliteWorker.ts'

/**
 * The embedded store of `--data-dir`: Postgres compiled to WebAssembly (PGlite), in `dataDir/pglite`,
 * run on a worker thread (pgliteWorker.ts) so that its statements, synchronous WebAssembly, do not
 * hold the event loop that serves requests (a 1,000-job window's commit took 50-70 ms of it).
 * PGlite serves the process that opened it only, so `dataDir/writer.pid` (created with O_EXCL)
 * keeps a second process out; one left by a process that died is taken over.
 */
export async function openPgliteDatabase(dataDir: string): Promise<Database> {
  const where = resolve(dataDir)
  await mkdir(where, { recursive: true })
  const releaseLock = await lockDataDir(where)
  try {
    const worker = await startPgliteWorker({ where, path: join(where, 'pglite') })
    const send: Query = ((sql: string, parameters?: readonly unknown[], options?: { rowMode: 'array' }) =>
      worker.ask({ type: 'query', sql, parameters: parameters ?? [], rowMode: options?.rowMode ?? 'object' })) as Query
    return {
      where,
      kind: 'pglite',
      ...createSessionQueue(send),
      listen: async (channel, onNotify) => {
        const stop = worker.onNotification(channel, onNotify)
        await worker.ask({ type: 'listen', channel })
        return async () => {
          if (stop()) await worker.ask({ type: 'unlisten', channel })
        }
      },
      close: async () => {
        try {
          await worker.ask({ type: 'close' })
        } finally {
          await worker.terminate()
          await releaseLock()
        }
      },
    }
  } catch (error) {
    await releaseLock()
    throw error
  }
}

async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, 'writer.pid')
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const file = await open(path, 'wx')
      await file.writeFile(String(process.pid))
      await file.close()
      return () => rm(path, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10)
      if (Number.isSafeInteger(pid) && pid !== process.pid && isProcessAlive(pid)) throw new DataDirLockedError({ dataDir, pid })
      // Left by a process that is gone (a kill -9 leaves it): its data is whole, each window being one transaction.
      await rm(path, { force: true })
    }
  }
  throw new DataDirLockedError({ dataDir, pid: Number.NaN })
}
