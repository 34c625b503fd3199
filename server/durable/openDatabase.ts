import type { Config } from '../../config/ConfigSchema.ts'
import type { Database } from './Database.ts'
import { openPgliteDatabase } from './openPgliteDatabase.ts'
import { openPostgresDatabase } from './openPostgresDatabase.ts'

/** Whether the configuration keeps the index in a database (`--database-url` or `--data-dir`), not in memory only. */
export function keepsIndex({ dataDir, databaseUrl }: Pick<Config, 'dataDir' | 'databaseUrl'>): boolean {
  return databaseUrl !== null || dataDir !== null
}

/**
 * The database the configuration names (`--database-url`, else `--data-dir`); undefined: the index
 * lives in memory only. A read-only replica reconnects when its Postgres session is lost (it holds
 * nothing on it); a writer stops writing (its lock went with the session).
 */
export async function openDatabase(
  { dataDir, databaseUrl, readOnly }: Pick<Config, 'dataDir' | 'databaseUrl' | 'readOnly'>,
  { onSessionLost }: { onSessionLost?: ((error: Error) => void) | undefined } = {},
): Promise<Database | undefined> {
  if (databaseUrl !== null)
    return openPostgresDatabase({
      url: databaseUrl,
      onSessionLost: readOnly ? 'reconnect' : 'stop',
      onLost: onSessionLost,
      applicationName: readOnly ? 'tee-market replica' : 'tee-market indexer',
    })
  if (dataDir !== null) return openPgliteDatabase(dataDir)
  return undefined
}
