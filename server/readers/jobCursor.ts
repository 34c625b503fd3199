import { createHash } from 'node:crypto'
import { InvalidCursorError } from '../../errors/http.ts'

/**
 * A cursor is the id of the last job a page held, and a tag of the list it walks (path and
 * filters), base64url-encoded: `base64url("<jobId>:<tag>")`. The next page is the list's jobs
 * below that id, newest first. Ids are handed out in increasing order and never reused, so jobs
 * created since land above the cursor (a new walk's first page), never inside the rest of this one:
 * no job comes twice, none is skipped, whatever arrives or is removed (a reorg) meanwhile.
 * The tag is what makes a cursor foreign to another list; it is not a secret, as nothing is: any
 * id is a place a walk may start from, and the jobs are public.
 */
export type JobCursorScope = string

/** 64 bits of SHA-256: a cursor of another list matching by chance is not a concern. */
const tagLength = 16
const cursorPattern = new RegExp(`^([1-9][0-9]{0,77}):([0-9a-f]{${tagLength}})$`)

function tagOf(scope: JobCursorScope): string {
  return createHash('sha256').update(scope).digest('hex').slice(0, tagLength)
}

export function toJobCursor({ jobId, scope }: { jobId: string; scope: JobCursorScope }): string {
  return Buffer.from(`${jobId}:${tagOf(scope)}`, 'latin1').toString('base64url')
}

/** Whether the cursor is absent or one this list gave out: the HTTP layer gives no ETag to an answer that will be a 400. */
export function isJobCursorOf(cursor: string | undefined, { scope }: { scope: JobCursorScope }): boolean {
  if (cursor === undefined) return true
  try {
    fromJobCursor(cursor, { scope })
    return true
  } catch {
    return false
  }
}

/** The job id a cursor continues below; throws InvalidCursorError unless this list gave it out. */
export function fromJobCursor(cursor: string, { scope }: { scope: JobCursorScope }): string {
  const text = Buffer.from(cursor, 'base64url').toString('latin1')
  const match = cursorPattern.exec(text)
  // Node's decoder skips what is not base64url: only the exact encoding of a cursor counts.
  if (match === null || Buffer.from(text, 'latin1').toString('base64url') !== cursor || match[2] !== tagOf(scope))
    throw new InvalidCursorError({ cursor })
  return match[1] as string
}
