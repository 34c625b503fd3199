import pg from 'pg'
import { redactUrl } from '../../config/redactUrl.ts'
import { createSessionQueue } from './createSessionQueue.ts'
import type { Database, Query } from './Database.ts'

export type OpenPostgresDatabaseParameters = {
  url: string
  /** The session ended unasked (server restart, network): what was bound to it (the writer lock, LISTEN) is gone. */
  onSessionLost?: ((error: Error) => void) | undefined
}

/**
 * A Postgres server (`--database-url`) on one session: the writer's lock, its transactions and a
 * replica's LISTEN all need the same session to mean anything (statements run one at a time on
 * it: createSessionQueue).
 */
export async function openPostgresDatabase({ url, onSessionLost }: OpenPostgresDatabaseParameters): Promise<Database> {
  const client = new pg.Client({ connectionString: url, application_name: 'tee-market' })
  let closing = false
  client.on('error', (error) => {
    if (!closing) onSessionLost?.(error)
  })
  client.on('end', () => {
    if (!closing) onSessionLost?.(new Error('the server closed the connection'))
  })
  await client.connect()
  const query: Query = async (sql: string, parameters?: readonly unknown[], options?: { rowMode: 'array' }) =>
    (await client.query({ text: sql, values: parameters as unknown[], ...(options?.rowMode === 'array' ? { rowMode: 'array' as const } : {}) })).rows as never
  const listeners = new Map<string, Set<(payload: string) => void>>()
  client.on('notification', ({ channel, payload }) => {
    for (const onNotify of listeners.get(channel) ?? []) onNotify(payload ?? '')
  })
  return {
    where: redactUrl(url),
    kind: 'postgres',
    ...createSessionQueue(query),
    listen: async (channel, onNotify) => {
      const channelListeners = listeners.get(channel) ?? new Set()
      listeners.set(channel, channelListeners)
      if (channelListeners.size === 0) await query(`LISTEN ${pg.escapeIdentifier(channel)}`)
      channelListeners.add(onNotify)
      return async () => {
        channelListeners.delete(onNotify)
        if (channelListeners.size === 0 && !closing) await query(`UNLISTEN ${pg.escapeIdentifier(channel)}`)
      }
    },
    close: async () => {
      closing = true
      await client.end()
    },
  }
}

