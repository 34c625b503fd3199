import pg from 'pg'
import { redactUrl } from '../../config/redactUrl.ts'
import { createSessionQueue } from './createSessionQueue.ts'
import type { Database, Query } from './Database.ts'

export type OpenPostgresDatabaseParameters = {
  url: string
  /**
   * What a lost session (server restart, network, a terminated backend) leads to. `stop` (a
   * writer): nothing more runs on it, since what was bound to it, the writer lock, is gone and a
   * standby may hold it now. `reconnect` (a read-only replica, which holds no lock): the next
   * statement opens a new session and listens again on its channels.
   */
  onSessionLost: 'stop' | 'reconnect'
  /** Told each time the session is lost. */
  onLost?: ((error: Error) => void) | undefined
  /** Names the sessions in `pg_stat_activity` (default `tee-market`). */
  applicationName?: string | undefined
}

/**
 * A Postgres server (`--database-url`) on one session at a time: the writer's lock, its
 * transactions and a replica's LISTEN all need the same session to mean anything (statements run
 * one at a time on it: createSessionQueue).
 */
export async function openPostgresDatabase({ url, onSessionLost, onLost, applicationName = 'tee-market' }: OpenPostgresDatabaseParameters): Promise<Database> {
  const where = redactUrl(url)
  const listeners = new Map<string, Set<(payload: string) => void>>()
  let closing = false
  let lost: Error | undefined
  let session: pg.Client | undefined

  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url, application_name: applicationName })
    const end = (error: Error): void => {
      if (closing || lost !== undefined || session !== client) return
      lost = error
      onLost?.(error)
      if (onSessionLost === 'reconnect') void reconnectSoon()
    }
    client.on('error', end)
    client.on('end', () => end(new Error('the server closed the connection')))
    client.on('notification', ({ channel, payload }) => {
      for (const onNotify of listeners.get(channel) ?? []) onNotify(payload ?? '')
    })
    await client.connect()
    return client
  }
  let reconnecting: Promise<pg.Client> | undefined
  const reconnect = async (): Promise<pg.Client> => {
    session?.end().catch(() => undefined)
    session = undefined
    const client = await connect()
    try {
      for (const channel of listeners.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
    } catch (error) {
      client.end().catch(() => undefined)
      throw error
    }
    session = client
    lost = undefined
    return client
  }
  /** The session to run a statement on: a new one after a loss, when reconnecting. */
  const current = async (): Promise<pg.Client> => {
    if (lost === undefined && session !== undefined) return session
    if (onSessionLost === 'stop' || closing) throw new Error(`The session with ${where} was lost (${lost?.message ?? 'closed'}).`, { cause: lost })
    reconnecting ??= reconnect().finally(() => {
      reconnecting = undefined
    })
    return reconnecting
  }
  /**
   * Reconnects at once rather than at the next statement, retrying while the server is away
   * (0.1 s, doubling to 5 s); then tells every channel's listeners, since NOTIFYs sent meanwhile
   * never arrived.
   */
  const reconnectSoon = async (): Promise<void> => {
    for (let delayMs = 100; !closing; delayMs = Math.min(5_000, delayMs * 2)) {
      try {
        await current()
        for (const channelListeners of listeners.values()) for (const onNotify of channelListeners) onNotify('')
        return
      } catch {
        await new Promise((resolve) => setTimeout(resolve, delayMs))
      }
    }
  }
  session = await connect()
  const query: Query = async (sql: string, parameters?: readonly unknown[], options?: { rowMode: 'array' }) =>
    (await (await current()).query({ text: sql, values: parameters as unknown[], ...(options?.rowMode === 'array' ? { rowMode: 'array' as const } : {}) })).rows as never
  return {
    where,
    kind: 'postgres',
    ...createSessionQueue(query),
    listen: async (channel, onNotify) => {
      const channelListeners = listeners.get(channel) ?? new Set()
      if (channelListeners.size === 0) await query(`LISTEN ${pg.escapeIdentifier(channel)}`)
      listeners.set(channel, channelListeners)
      channelListeners.add(onNotify)
      return async () => {
        channelListeners.delete(onNotify)
        if (channelListeners.size > 0) return
        listeners.delete(channel)
        if (!closing && lost === undefined) await query(`UNLISTEN ${pg.escapeIdentifier(channel)}`)
      }
    },
    close: async () => {
      closing = true
      await session?.end()
    },
  }
}
