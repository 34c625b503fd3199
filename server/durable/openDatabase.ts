import type { Config } from '../../config/ConfigSchema.ts'
import type { Database } from './Database.ts'
import { openPgliteDatabase } from './openPgliteDatabase.ts'
import { openPostgresDatabase } from './openPostgresDatabase.ts'

/** The database the configuration names (`--database-url`, else `--data-dir`); undefined: the index lives in memory only. */
export async function openDatabase(
  { dataDir, databaseUrl }: Pick<Config, 'dataDir' | 'databaseUrl'>,
  { onSessionLost }: { onSessionLost?: ((error: Error) => void) | undefined } = {},
): Promise<Database | undefined> {
  if (databaseUrl !== null) return openPostgresDatabase({ url: databaseUrl, onSessionLost })
  if (dataDir !== null) return openPgliteDatabase(dataDir)
  return undefined
}
