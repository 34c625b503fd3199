import { formatEther } from 'viem'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { answerInfoFlags } from '../../config/answerInfoFlags.ts'
import { describeConfigFlags } from '../../config/describeConfigFlags.ts'
import { loadConfig } from '../../config/loadConfig.ts'
import { createLogger } from '../../platform/logging/createLogger.ts'
import { packageVersion } from '../../platform/logging/packageVersion.ts'
import { createMarketMcpServer } from '../server/createMarketMcpServer.ts'
import { createToolContext } from '../server/createToolContext.ts'
import { createToolDispatcher } from '../server/createToolDispatcher.ts'
import { runSettingsHelp } from '../run/readRunSettings.ts'
import { localTools } from '../tools/localTools.ts'
import { defaultSpendLimits } from '../spend/defaultSpendLimits.ts'

// Local MCP server over stdio (`npx tee-market-mcp`, six tools). Network: 0g-mainnet unless
// --network or MARKET_NETWORK says otherwise; the chain and indexer settings as for the indexer (RPC_URL, ...).
// stdout carries only protocol messages: the log goes to stderr (JSON lines, --log-level /
// LOG_LEVEL), and anything printed by a library goes there too.
console.log = console.error
console.info = console.error
console.debug = console.error

const usage = `Usage: tee-market-mcp [options]

The local MCP server over stdio: list_services, get_service, get_job, verify_attestation and run
(which pays a service from MARKET_PRIVATE_KEY). Network 0g-mainnet unless --network says otherwise.

  verify-tee <evidence.json> [--at <ISO time>] [--root-ca <file>] [--tee-… policy flags]
                 verify one TEE evidence file offline and exit (0 verified, 1 not, 2 bad usage)
  -h, --help     print this and exit
  -V, --version  print the version and exit
${describeConfigFlags({ only: ['network', 'rpcUrls', 'chainId', 'registry', 'escrow', 'deploymentPath', 'explorerUrl', 'indexerUrl', 'logLevel', 'inferenceServing', 'pccsUrl', 'teeTcbStatuses', 'teeAllowedAdvisories', 'teeComposeHashes', 'teeMrtds', 'teeCollateralMaxAge', 'teeGpuVerifier'] })}

What run may spend (environment only, so that the agent cannot change it; see docs/mcp.md).
With none of them set, run still keeps the ledger, a 24-hour limit of ${formatEther(defaultSpendLimits.spendLimitWei)} native token and a
per-call cap of ${formatEther(defaultSpendLimits.maxPriceWei)}: a person raises them, or lifts them with none, here in the environment:
${runSettingsHelp}`

// `tee-market-mcp verify-tee <evidence.json>`: the offline TEE check (tee/runVerifyTee.ts), for
// auditors who have the published bin and no checkout. Loaded only for this subcommand.
if (process.argv[2] === 'verify-tee') {
  const { runVerifyTee } = await import('../../tee/runVerifyTee.ts')
  process.exit(await runVerifyTee({ argv: process.argv.slice(3), stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) }))
}

if (answerInfoFlags(process.argv.slice(2), { usage })) process.exit(0)

try {
  const config = loadConfig({ argv: process.argv.slice(2), env: process.env, defaultNetwork: '0g-mainnet' })
  const logger = createLogger({ level: config.logLevel, stream: process.stderr, base: { service: 'mcp-stdio' } })
  const log = (message: string): void => logger.info(message)
  const context = { ...createToolContext(config, { log, server: 'local' }), env: process.env }
  const dispatcher = createToolDispatcher(context, { tools: localTools })
  const server = createMarketMcpServer(dispatcher)
  // The client went away: closing the server aborts the calls still running (a `run` waiting for
  // settlement logs the paid job it leaves), then the process ends once they have returned.
  server.onclose = () =>
    void dispatcher.idle().then(() => {
      logger.info('tee-market-mcp (stdio) stopped')
      process.exit(0)
    })
  process.stdin.once('end', () => void server.close())
  await server.connect(new StdioServerTransport())
  logger.info(
    { version: packageVersion, network: config.network, chainId: config.chainId, registry: config.registry, escrow: config.escrow, tools: localTools.map((tool) => tool.name) },
    `tee-market-mcp (stdio, ${localTools.length} tools), network ${config.network}, reading ${context.reading}`,
  )
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}
