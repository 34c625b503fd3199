import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Config } from '../config/ConfigSchema.ts'

export type BuildMcpClientEntriesParameters = {
  config: Config
  /** The hosted server's endpoint as it listens, e.g. `http://127.0.0.1:8081/mcp`. */
  hostedUrl: string
  /** The devnet's funded buyer key, for the local server's `run`. */
  buyerKey: string
}

/** An MCP client's `mcpServers` object: one serializable entry per server. */
export type BuildMcpClientEntriesReturnType = { mcpServers: Record<string, unknown> }

/** The bin of this checkout: what the local entry runs (built by `npm start`'s prestart). */
const binPath = fileURLToPath(new URL('../bin/tee-market-mcp.js', import.meta.url))

/**
 * The hosted and local MCP entries for the running devnet, with absolute paths, ready to paste
 * into a client's configuration. The local entry runs this checkout's bin with `node`: nothing is
 * fetched from a registry, so no package of someone else's receives the key.
 */
export function buildMcpClientEntries({ config, hostedUrl, buyerKey }: BuildMcpClientEntriesParameters): BuildMcpClientEntriesReturnType {
  return {
    mcpServers: {
      'tee-market-devnet': { url: hostedUrl },
      'tee-market-devnet-local': {
        command: 'node',
        args: [binPath],
        env: {
          MARKET_NETWORK: 'devnet',
          RPC_URL: config.rpcUrl,
          DEPLOYMENT_PATH: config.deploymentPath,
          MARKET_OUTPUT_URL: `${config.tlsCert === null ? 'http' : 'https'}://${config.host}:${config.sellerPort}/outputs/{jobId}`,
          MARKET_PRIVATE_KEY: buyerKey,
          // A devnet's certificate is likely self-signed: the local server must trust it to fetch outputs.
          ...(config.tlsCert === null ? {} : { NODE_EXTRA_CA_CERTS: resolve(config.tlsCert) }),
        },
      },
    },
  }
}
