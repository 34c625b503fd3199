import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import { FeedCursorSchema } from '../../contract/feed.ts'
import { describeFirstLine } from './describeFirstLine.ts'
import { readJsonFile } from './readJsonFile.ts'

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
      const read = readJsonFile(file, CursorFileSchema)
      // Absent: this seller's first run on the feed.
      if (read.kind === 'read') return read.data.cursor
      if (read.kind === 'malformed') {
        const what = read.cause instanceof SyntaxError ? `not JSON (${describeFirstLine(read.cause)})` : 'not a cursor this seller wrote'
        log(`The feed cursor file ${file} is ${what}: starting from the indexer's Pending jobs.`)
      }
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
