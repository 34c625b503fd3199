import type { ConfigKey } from './ConfigSchema.ts'
import { configSources, parseFlags } from './loadConfig.ts'

export type IsSettingGivenParameters = {
  argv: readonly string[]
  env: Readonly<Record<string, string | undefined>>
}

/**
 * Whether a setting was given by flag or variable rather than left to its default: for a part of
 * an entry point that runs only when asked (`npm run serve -- --mcp-port 8081` adds the hosted
 * MCP server). Empty variables count as unset, as in loadConfig.
 */
export function isSettingGiven(key: ConfigKey, { argv, env }: IsSettingGivenParameters): boolean {
  const { flag, env: variable } = configSources[key]
  return parseFlags(argv)[flag] !== undefined || (env[variable] ?? '') !== ''
}
