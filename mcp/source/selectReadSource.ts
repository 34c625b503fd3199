import type { Config } from '../../config/ConfigSchema.ts'
import { ConfigError } from '../../errors/config.ts'
import { McpSourceMissingError } from '../../errors/mcp.ts'

export type SelectReadSourceParameters = {
  /** The hosted server must not fall back on the chain; the local one reads its user's own node. */
  server: 'hosted' | 'local'
  /** Whether an indexer's store runs in this process. */
  hasStore: boolean
}

/** What the read tools read: the store in this process, the REST indexer at `indexerUrl`, or the node. */
export type SelectReadSourceReturnType = 'store' | 'indexer' | 'chain'

/**
 * Picks the read tools' source from `--mcp-source` and `--indexer-url`, and refuses at start a
 * setting that would read the node per call without saying so, or that says two things at once.
 */
export function selectReadSource(
  { mcpSource, indexerUrl }: Pick<Config, 'mcpSource' | 'indexerUrl'>,
  { server, hasStore }: SelectReadSourceParameters,
): SelectReadSourceReturnType {
  if (mcpSource === 'chain') {
    if (indexerUrl !== null) {
      throw new ConfigError(`--mcp-source chain reads the node, --indexer-url "${indexerUrl}" a REST indexer: give one of them.`)
    }
    return 'chain'
  }
  if (hasStore) return 'store'
  if (indexerUrl !== null) return 'indexer'
  if (server === 'hosted') throw new McpSourceMissingError()
  if (mcpSource === 'index') throw new ConfigError('--mcp-source index needs --indexer-url <url>: the local MCP server has no indexer in its process.')
  return 'chain'
}
