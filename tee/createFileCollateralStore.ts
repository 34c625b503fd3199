import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { TeeCollateralSchema } from '../contract/tee.ts'
import type { CollateralEntry, CollateralStore } from './CollateralStore.ts'

export type CreateFileCollateralStoreParameters = {
  /** The JSON file holding every entry, e.g. in the MCP server's data directory. */
  path: string
}

const FileSchema = z.record(
  z.object({ collateral: TeeCollateralSchema, expiresAt: z.string().datetime(), fetchedAt: z.string().datetime() }),
)
type File = z.output<typeof FileSchema>

/**
 * A store in one JSON file, rewritten whole through a temporary file and a rename, so a crash
 * leaves the old file or the new one, never half of one. A file that is missing, unreadable or
 * not of this shape reads as empty: the collateral is fetched again, nothing is lost but time.
 * Writes from one process are queued; two processes sharing a file may lose an entry, not corrupt it.
 */
export function createFileCollateralStore({ path }: CreateFileCollateralStoreParameters): CollateralStore {
  let queue: Promise<unknown> = Promise.resolve()
  const load = async (): Promise<File> => {
    try {
      const parsed = FileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')))
      return parsed.success ? parsed.data : {}
    } catch {
      return {}
    }
  }
  const save = async (key: string, entry: CollateralEntry) => {
    const file = await load()
    file[key] = { collateral: entry.collateral, expiresAt: entry.expiresAt.toISOString(), fetchedAt: entry.fetchedAt.toISOString() }
    await mkdir(dirname(path), { recursive: true })
    const temporary = `${path}.${process.pid}.tmp`
    await writeFile(temporary, JSON.stringify(file))
    await rename(temporary, path)
  }
  return {
    async read(key) {
      const entry = (await load())[key]
      return entry === undefined ? undefined : { collateral: entry.collateral, expiresAt: new Date(entry.expiresAt), fetchedAt: new Date(entry.fetchedAt) }
    },
    write(key, entry) {
      const written = queue.then(() => save(key, entry))
      queue = written.catch(() => {})
      return written
    },
  }
}
