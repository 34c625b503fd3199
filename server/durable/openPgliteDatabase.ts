import { mkdir, open, readFile, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { DataDirLockedError } from '../../errors/durable.ts'
import type { Database, Query } from './Database.ts'
import { isProcessAlive } from './isProcessAlive.ts'

/**
 * The embedded store of `--data-dir`: Postgres compiled to WebAssembly (PGlite), in `dataDir/pglite`.
 * PGlite serves the process that opened it only, so `dataDir/writer.pid` (created with O_EXCL)
 * keeps a second process out; one left by a process that died is taken over.
 */
export async function openPgliteDatabase(dataDir: string): Promise<Database> {
  const where = resolve(dataDir)
  await mkdir(where, { recursive: true })
  const releaseLock = await lockDataDir(where)
  try {
    const pglite = await PGlite.create(join(where, 'pglite'))
    // PGlite writes its files from the main thread: a new 16 MB WAL segment filled with zeros
    // held requests 25–40 ms. Only its last byte written is what Postgres does where zeros buy
    // nothing; WAL replay tells the end of the log by its records' checksums, not by the zeros.
    await pglite.exec('SET wal_init_zero = off')
    const query: Query = async (sql: string, parameters?: readonly unknown[], options?: { rowMode: 'array' }) =>
      (await pglite.query(sql, parameters as unknown[], options)).rows as never
    return {
      where,
      kind: 'pglite',
      query,
      transaction: (work) =>
        pglite.transaction((transaction) =>
          work((async (sql: string, parameters?: readonly unknown[], options?: { rowMode: 'array' }) =>
            (await transaction.query(sql, parameters as unknown[], options)).rows) as Query),
        ),
      listen: (channel, onNotify) => pglite.listen(channel, onNotify),
      close: async () => {
        await pglite.close()
        await releaseLock()
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
