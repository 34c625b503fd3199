import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import { FeedCursorSchema } from '../../contract/feed.ts'
import { describeFirstLine } from './describeFirstLine.ts'

export type CursorFile = {
  /** The id saved last; null when none was (or the file is absent or unreadable): the indexer's REST API is read first. */
  read: () => string | null
  /** Saves `cursor` durably: written beside the file, flushed to disk, renamed over it, the folder flushed. */
  write: (cursor: string | null) => void
}

const CursorFileSchema = z.object({ cursor: FeedCursorSchema.nullable() })

/**
 * The seller's place in an indexer's live feed, kept in a small JSON file (`{ "cursor": "<id>" }`).
 * A crash at any moment leaves the old file or the new one, never a part of either. A damaged
 * file costs only a REST read of the Pending jobs, so it is logged and read as no cursor.
 */
export function createCursorFile(file: string, { log }: { log: (line: string) => void }): CursorFile {
  return {
    read() {
      let text: string
      try {
        text = readFileSync(file, 'utf8')
      } catch {
        // No file yet: this seller's first run on the feed.
        return null
      }
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch (error) {
        log(`The feed cursor file ${file} is not JSON (${describeFirstLine(error)}): starting from the indexer's Pending jobs.`)
        return null
      }
      const parsed = CursorFileSchema.safeParse(json)
      if (parsed.success) return parsed.data.cursor
      log(`The feed cursor file ${file} holds no event id: starting from the indexer's Pending jobs.`)
      return null
    },
    write(cursor) {
      const temporary = `${file}.${process.pid}.tmp`
      const descriptor = openSync(temporary, 'w')
      try {
        writeSync(descriptor, `${JSON.stringify({ cursor })}\n`)
        fsyncSync(descriptor)
      } finally {
        closeSync(descriptor)
      }
      renameSync(temporary, file)
      // The rename itself is durable once the folder is.
      const folder = openSync(dirname(file), 'r')
      try {
        fsyncSync(folder)
      } finally {
        closeSync(folder)
      }
    },
  }
}
