import { configSources, type ConfigSource } from './loadConfig.ts'

/**
 * The configuration options of loadConfig as `--help` lines, each with its environment variable.
 * Defaults depend on the network preset: docs/configuration.md lists them. A server
 * that reads only some of them (the stdio MCP server) lists only those.
 */
export function describeConfigFlags({ only }: { only?: readonly (keyof typeof configSources)[] } = {}): string {
  const sources: ConfigSource[] = only === undefined ? Object.values(configSources) : only.map((key) => configSources[key])
  const flags = sources.map(
    (source: ConfigSource) =>
      source.repeatable === true
        ? ([`--${source.flag} <value> (repeatable)`, `${source.env} (comma-separated)`] as const)
        : ([`--${source.flag} <value>`, source.env] as const),
  )
  const width = Math.max(...flags.map(([flag]) => flag.length))
  return flags.map(([flag, env]) => `  ${flag.padEnd(width)}  env ${env}`).join('\n')
}
