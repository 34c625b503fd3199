import { refuseUnsupportedNode } from '../config/refuseUnsupportedNode.ts'
import { relative } from 'node:path'
import { createTestClient, formatEther, http, toHex } from 'viem'
import { answerInfoFlags } from '../config/answerInfoFlags.ts'
import type { Config } from '../config/ConfigSchema.ts'
import { loadConfig } from '../config/loadConfig.ts'
import { BaseError } from '../errors/BaseError.ts'
import { ConfigError } from '../errors/config.ts'
import { quoteSetting } from '../errors/quoteSetting.ts'
import { PortInUseError } from '../errors/devnet.ts'
import { mcpComponent } from './mcpComponent.ts'
import { restComponent } from './restComponent.ts'
import { createLogger } from '../platform/logging/createLogger.ts'
import { createHeldStream } from './createHeldStream.ts'
import type { StoreReader } from '../server/store/StoreReader.ts'
import { buildMcpClientEntries } from './buildMcpClientEntries.ts'
import type { DevnetComponent, StartedDevnetComponent } from './DevnetComponent.ts'
import { plannedServices } from './seed/marketPlan.ts'
import { seedAccounts } from './seed/seedAccounts.ts'
import { startDevnet, type StartDevnetReturnType } from './startDevnet.ts'
import { sellerComponent } from './seller/sellerComponent.ts'
import { writeDeploymentRecord } from './writeDeploymentRecord.ts'
import { setChainClockToNow } from './seed/setChainClockToNow.ts'

refuseUnsupportedNode()

/** A component once started, as the report reads it. */
type StartedComponent = { name: string } & Pick<StartedDevnetComponent, 'urls' | 'outputsUrl'>

/** What runs on top of the devnet, started in this order and stopped in reverse. */
const components: DevnetComponent[] = [restComponent, mcpComponent, sellerComponent]

const usage = `Usage: npm start -- [options]

Starts a hardhat devnet with the marketplace contracts and a seeded market, then: ${components
  .map((component) => component.name)
  .join(', ')}.

  --rpc-port <port>     devnet JSON-RPC port (default 8545)
  --pccs-port <port>    devnet PCCS port: the collateral of its TEE root (default 8083)
  --port <port>         REST indexer port (default 8080, env PORT)
  --mcp-port <port>     hosted MCP port (default 8081, env MCP_PORT)
  --seller-port <port>  reference seller's output port (default 8082, env SELLER_PORT)
  --host <host>         REST and MCP listen address (default 127.0.0.1, env HOST)
  --deployment <path>   where to write the deployment record (default devnet/deployment.json)
  -h, --help            print this and exit
  -V, --version         print the version and exit
  Every other configuration flag (docs/configuration.md) is accepted too.`

type Stoppable = { name: string; stop: () => Promise<void> }

const stack: Stoppable[] = []
let stopping: Promise<void> | undefined
/** Lets the components' log lines out; they are held until the report is printed (see createHeldStream). */
let releaseLogs: () => void = () => undefined

function stopAll(): Promise<void> {
  stopping ??= (async () => {
    for (const { name, stop } of stack.reverse()) {
      try {
        await stop()
      } catch (error) {
        console.error(`Stopping ${name} failed: ${describeError(error)}`)
      }
    }
  })()
  return stopping
}

function onSignal(signal: NodeJS.Signals): void {
  if (stopping !== undefined) {
    // A second Ctrl+C: the user does not want to wait for a clean stop.
    process.exit(130)
  }
  console.log(`\n${signal}: stopping…`)
  releaseLogs()
  void stopAll().then(() => process.exit(0))
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2)
  if (answerInfoFlags(argv, { usage })) return
  const { ports, rest } = takeDevnetPorts(argv)
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)

  // The clock is set once the components are up (see setClockToNow).
  const devnet = await startDevnet({ port: ports.rpc, pccsPort: ports.pccs, seed: true, setClockToNow: false }).catch((error: unknown) => {
    // The node's refusal names no flag; the PCCS's names its own.
    throw error instanceof PortInUseError && error.port === ports.rpc ? new PortInUseError({ host: error.host, port: error.port, flag: '--rpc-port' }) : error
  })
  stack.push({ name: 'devnet', stop: devnet.stop })
  void devnet.exited.then(() => {
    if (stopping !== undefined) return
    console.error('The devnet node exited unexpectedly: stopping.')
    void stopAll().then(() => process.exit(1))
  })
  const config = loadConfig({
    // npm start serves its own node: its URL wins over any --rpc-url or RPC_URL.
    argv: [...rest, '--rpc-url', devnet.rpcUrl],
    env: process.env,
    deployment: devnet.deployment,
  })
  if (config.network !== 'devnet') {
    throw new ConfigError(`npm start runs the devnet, so the network must be "devnet", got "${config.network}".`)
  }
  writeDeploymentRecord(config.deploymentPath, devnet.deployment)
  const logs = createHeldStream(process.stderr)
  releaseLogs = logs.release
  const logger = createLogger({ level: config.logLevel, stream: logs.stream, pretty: process.stderr.isTTY === true })
  stack.unshift({ name: 'logger', stop: async () => logger.info('npm start stopped') })

  const started: StartedComponent[] = []
  let store: StoreReader | undefined
  for (const component of components) {
    const componentLogger = logger.child({ component: component.name })
    const log = (message: string): void => componentLogger.info(message)
    const running = await component.start({ config, devnet, log, logger, store })
    store ??= running.store
    stack.push({ name: component.name, stop: running.stop })
    started.push({ name: component.name, urls: running.urls, outputsUrl: running.outputsUrl })
  }

  await setChainClockToNow(createTestClient({ transport: http(devnet.rpcUrl), mode: 'hardhat' }))
  console.log(report({ devnet, config, started }))
  console.log(`\nReady in ${(performance.now() / 1000).toFixed(1)} s. Press Ctrl+C to stop.`)
  releaseLogs()
}

/** The devnet's own ports, which are not configuration of the components: `--rpc-port` and `--pccs-port`. */
const devnetPortFlags = { rpc: { flag: '--rpc-port', default: '8545' }, pccs: { flag: '--pccs-port', default: '8083' } } as const

type DevnetPorts = Record<keyof typeof devnetPortFlags, number>

function takeDevnetPorts(argv: readonly string[]): { ports: DevnetPorts; rest: string[] } {
  const texts: Record<keyof DevnetPorts, string> = { rpc: devnetPortFlags.rpc.default, pccs: devnetPortFlags.pccs.default }
  const rest: string[] = []
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!
    const taken = (Object.keys(devnetPortFlags) as (keyof DevnetPorts)[]).find(
      (name) => arg === devnetPortFlags[name].flag || arg.startsWith(`${devnetPortFlags[name].flag}=`),
    )
    if (taken === undefined) rest.push(arg)
    else texts[taken] = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (argv[++index] ?? '')
  }
  const portOf = (name: keyof DevnetPorts): number => {
    const text = texts[name]
    const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN
    if (!(port >= 1 && port <= 65_535)) {
      throw new ConfigError(`${devnetPortFlags[name].flag} must be a TCP port number from 1 to 65535, got ${quoteSetting(text)}.`)
    }
    return port
  }
  return { ports: { rpc: portOf('rpc'), pccs: portOf('pccs') }, rest }
}

function report({
  devnet,
  config,
  started,
}: {
  devnet: StartDevnetReturnType
  config: Config
  started: StartedComponent[]
}): string {
  const { deploymentPath } = config
  const { deployment, seedSummary } = devnet
  const rows = (entries: [string, string][]): string[] => {
    const width = Math.max(...entries.map(([label]) => label.length))
    return entries.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)
  }
  const urls = started.flatMap(({ urls }) => Object.entries(urls))
  // What a person opens first comes first.
  const explorer = urls.filter(([label]) => label === 'Explorer')
  const lines = [
    'tee-market devnet',
    '',
    ...rows([
      ...explorer,
      ['RPC URL', devnet.rpcUrl],
      ['chainId', String(deployment.chainId)],
      ['registry', deployment.registry],
      ['escrow', deployment.escrow],
      ['arbiter', deployment.arbiter],
      ['attestationVerifier', deployment.attestationVerifier],
      ['reputationVault', deployment.reputationVault],
      ['agentToken', deployment.agentToken],
      ...(deployment.tee === undefined
        ? []
        : ([
            ['inferenceServing (0G mock)', deployment.tee.inferenceServing],
            ['PCCS (devnet TEE root)', deployment.tee.pccsUrl],
          ] as [string, string][])),
      ['deploy block', deployment.deployBlock],
      ['deployment record', relative(process.cwd(), deploymentPath) || deploymentPath],
      ...urls.filter(([label]) => label !== 'Explorer'),
    ]),
  ]
  if (seedSummary !== null) {
    const states = Object.entries(seedSummary.jobsByState)
      .filter(([, count]) => count > 0)
      .map(([state, count]) => `${count} ${state}`)
      .join(', ')
    const serviceRows = seedSummary.serviceIds.map((serviceId, index): [string, string] => {
      const service = plannedServices[index]!
      const notes = [
        serviceId === seedSummary.delistedServiceId ? 'delisted, bond withdrawal requested' : '',
        serviceId === seedSummary.inactiveServiceId ? 'made inactive' : '',
        serviceId === seedSummary.rotatedServiceId ? 'signing key rotated, bond slashed' : '',
      ].filter(Boolean)
      return [
        `service ${serviceId}`,
        `${service.modelId} by seller #${service.seller + 1}, ${formatEther(service.pricePerCall)} ETH/call${
          notes.length > 0 ? ` (${notes.join(', ')})` : ''
        }`,
      ]
    })
    lines.push(
      '',
      `Seeded market: ${seedSummary.sellers.length} sellers, ${seedSummary.serviceIds.length} services, ${seedSummary.jobs} jobs (${states})`,
      ...rows([
        ...seedSummary.sellers.map((address, index): [string, string] => [`seller #${index + 1}`, address]),
        ...serviceRows,
        ['buyers', `accounts #4..#${3 + seedSummary.buyers.length} of the test mnemonic`],
        ['pending, for seller #1', jobList(seedSummary.pendingForReferenceSeller)],
        ['pending, nobody answers', jobList(seedSummary.pendingElsewhere)],
        ['disputed, not arbitrated', jobList(seedSummary.openDisputes)],
        ['disputed, dispute failed', jobList(seedSummary.failedDisputes)],
        ['slashed (old key)', jobList(seedSummary.slashedJobs)],
      ]),
    )
    if (seedSummary.teeVerdicts.length > 0) {
      lines.push(
        '',
        "TEE verdicts the seeded 0G provider records lead to (devnet/seed/teePlan.ts):",
        ...rows(seedSummary.teeVerdicts.map(({ serviceId, expectedVerdict, why }): [string, string] => [`service ${serviceId}`, `${expectedVerdict}: ${why}`])),
      )
    }
  }
  const buyerKey = seedAccounts.demoBuyer.getHdKey().privateKey
  lines.push(
    '',
    `Funded buyer (account #10 of hardhat's public test mnemonic: a well-known dev key, never use it on a real network):`,
    `  address             ${seedAccounts.demoBuyer.address}`,
    `  MARKET_PRIVATE_KEY=${buyerKey === null ? '(unavailable)' : toHex(buyerKey)}`,
  )
  const hostedUrl = started.flatMap(({ urls }) => Object.values(urls)).find((url) => url.endsWith('/mcp'))
  const outputsUrl = started.find((component) => component.outputsUrl !== undefined)?.outputsUrl
  if (hostedUrl !== undefined && outputsUrl !== undefined && buyerKey !== null) {
    const entries = buildMcpClientEntries({ config, hostedUrl, outputsUrl, buyerKey: toHex(buyerKey) })
    lines.push('', 'MCP client entries for this devnet (hosted, and local with the funded buyer), ready to paste:', JSON.stringify(entries, null, 2))
  }
  return lines.join('\n')
}

function jobList(ids: readonly bigint[]): string {
  return ids.length === 0 ? 'none' : `jobs ${ids.join(', ')}`
}

function describeError(error: unknown): string {
  if (error instanceof BaseError) {
    const cause = error.cause instanceof Error ? `\n  cause: ${(error.cause as { shortMessage?: string }).shortMessage ?? error.cause.message}` : ''
    return `${error.message}${error.details === undefined ? '' : `\n${error.details}`}${cause}`
  }
  return error instanceof Error ? error.message : String(error)
}

main().catch(async (error: unknown) => {
  releaseLogs()
  console.error(`npm start failed: ${describeError(error)}`)
  await stopAll()
  process.exit(1)
})
