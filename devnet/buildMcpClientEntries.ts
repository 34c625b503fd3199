import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseEther } from 'viem'
import type { Config } from '../config/ConfigSchema.ts'
import { userFolder } from '../config/userFolder.ts'
import { seedAccounts } from './seed/seedAccounts.ts'
import { referenceSellerIndex } from './seed/marketPlan.ts'
import { defaultSpendLimits } from '../mcp/spend/defaultSpendLimits.ts'

export type BuildMcpClientEntriesParameters = {
  config: Config
  /** The hosted server's endpoint as it listens, e.g. `http://127.0.0.1:8081/mcp`. */
  hostedUrl: string
  /** The reference seller's base URL as a client here reaches it (an address: `run` refuses a loopback name), e.g. `http://127.0.0.1:8082`. */
  outputsUrl: string
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
export function buildMcpClientEntries({ config, hostedUrl, outputsUrl, buyerKey }: BuildMcpClientEntriesParameters): BuildMcpClientEntriesReturnType {
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
          MARKET_OUTPUT_URL: `${outputsUrl}/outputs/{jobId}`,
          // The seller whose jobs the reference seller answers: other sellers' jobs never reach its endpoint.
          MARKET_OUTPUT_SELLER: seedAccounts.sellers[referenceSellerIndex].address,
          MARKET_PRIVATE_KEY: buyerKey,
          // Written out, so the person sees the knobs a real entry has. The devnet's dearest
          // service costs 0.004, under the default 0.01 cap; a day of trying it may take more than
          // the default 0.05, so 1 devnet token. Its own ledger: devnet spending must not eat into
          // the real network's day.
          MARKET_MAX_PRICE_WEI: defaultSpendLimits.maxPriceWei.toString(),
          MARKET_SPEND_LIMIT_WEI: parseEther('1').toString(),
          MARKET_SPEND_LEDGER: join(userFolder, 'spend-devnet.json'),
          // A devnet's certificate is likely self-signed: the local server must trust it to fetch outputs.
          ...(config.tlsCert === null ? {} : { NODE_EXTRA_CA_CERTS: resolve(config.tlsCert) }),
        },
      },
    },
  }
}
