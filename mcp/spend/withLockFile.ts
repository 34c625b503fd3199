import { randomUUID } from 'node:crypto'
import { open, readFile, rm, stat } from 'node:fs/promises'
import { LockFileHeldError } from '../../errors/spend.ts'
import { isProcessAlive } from '../../platform/process/isProcessAlive.ts'

export type WithLockFileParameters = {
  /** Created with O_EXCL while the lock is held, removed after. */
  path: string
  /** A lock this old was left by a holder that crashed, and is broken; far above the milliseconds a holder keeps it. */
  staleMs?: number
  /** How long to wait for another holder. */
  waitMs?: number
}

/**
 * Runs `work` while holding a lock file, so processes sharing a file (two MCP servers of one
 * person) read, change and write it one at a time. The file holds the holder's pid and a token:
 * a lock whose pid is gone, or older than `staleMs`, is broken; a holder releases only its own
 * token, so a lock broken under it and taken by another is left alone.
 */
export async function withLockFile<result>(
  { path, staleMs = 10_000, waitMs = 10_000 }: WithLockFileParameters,
  work: () => Promise<result>,
): Promise<result> {
  const token = `${process.pid} ${randomUUID()}`
  const giveUpAt = Date.now() + waitMs
  while (!(await tryCreate(path, token))) {
    if (await breakIfStale(path, staleMs)) continue
    if (Date.now() > giveUpAt) throw new LockFileHeldError({ path, waitedMs: waitMs })
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20))
  }
  try {
    return await work()
  } finally {
    if ((await readIfPresent(path)) === token) await rm(path, { force: true })
  }
}

async function tryCreate(path: string, token: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', 0o600)
    try {
      await handle.writeFile(token)
    } finally {
      await handle.close()
    }
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** Whether the lock is gone or was stale and has been removed: either way, try again at once. */
async function breakIfStale(path: string, staleMs: number): Promise<boolean> {
  const held = await readIfPresent(path)
  if (held === undefined) return true
  const modified = await stat(path).then(({ mtimeMs }) => mtimeMs, () => undefined)
  if (modified === undefined) return true
  const pid = Number(held.split(' ')[0])
  // A token still being written reads empty for an instant: only its age can make it stale.
  const holderGone = Number.isSafeInteger(pid) && pid > 0 && !isProcessAlive(pid)
  if (!holderGone && Date.now() - modified < staleMs) return false
  // Removed only if it is still the lock judged stale, not one taken since.
  if ((await readIfPresent(path)) === held) await rm(path, { force: true })
  return true
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}
