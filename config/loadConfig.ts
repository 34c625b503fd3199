import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { Hex } from 'viem'
import type { Deployment } from './deployment.ts'
import { ConfigError } from '../errors/config.ts'
import { canQuoteSetting, quoteSetting } from '../errors/quoteSetting.ts'
import { ConfigSchema, type Config, type ConfigKey, type ConfigSettings } from './ConfigSchema.ts'
import { networkNames, networks, type NetworkName } from './networks.ts'
import { readDeploymentRecord } from './readDeploymentRecord.ts'
import { defaultTcbPolicy } from '../tee/defaultTcbPolicy.ts'

export type ConfigSource = {
  flag: string
  env: string
  /** The flag may be given more than once, the variable holds a comma-separated list. */
  repeatable?: true
  /** The flag alone means "on" (`--read-only`); the variable holds on or off. */
  switch?: true
}

/** Where each setting can be given on the command line and in the environment. */
export const configSources = {
  network: { flag: 'network', env: 'MARKET_NETWORK' },
  rpcUrls: { flag: 'rpc-url', env: 'RPC_URL', repeatable: true },
  rpcRateLimit: { flag: 'rpc-rate-limit', env: 'RPC_RATE_LIMIT' },
  logRange: { flag: 'log-range', env: 'LOG_RANGE' },
  wsRpcUrl: { flag: 'ws-rpc-url', env: 'WS_RPC_URL' },
  chainId: { flag: 'chain-id', env: 'CHAIN_ID' },
  registry: { flag: 'registry', env: 'REGISTRY_ADDRESS' },
  escrow: { flag: 'escrow', env: 'ESCROW_ADDRESS' },
  arbiter: { flag: 'arbiter', env: 'ARBITER_ADDRESS' },
  attestationVerifier: { flag: 'attestation-verifier', env: 'ATTESTATION_VERIFIER_ADDRESS' },
  startBlock: { flag: 'start-block', env: 'START_BLOCK' },
  deployTimestamp: { flag: 'deploy-timestamp', env: 'DEPLOY_TIMESTAMP' },
  pollIntervalMs: { flag: 'poll-interval', env: 'POLL_INTERVAL_MS' },
  explorerUrl: { flag: 'explorer-url', env: 'EXPLORER_URL' },
  deploymentPath: { flag: 'deployment', env: 'DEPLOYMENT_PATH' },
  port: { flag: 'port', env: 'PORT' },
  host: { flag: 'host', env: 'HOST' },
  mcpPort: { flag: 'mcp-port', env: 'MCP_PORT' },
  sellerPort: { flag: 'seller-port', env: 'SELLER_PORT' },
  indexerUrl: { flag: 'indexer-url', env: 'INDEXER_URL' },
  mcpSource: { flag: 'mcp-source', env: 'MCP_SOURCE' },
  allowedHosts: { flag: 'allowed-hosts', env: 'MCP_ALLOWED_HOSTS' },
  allowedOrigins: { flag: 'allowed-origins', env: 'MCP_ALLOWED_ORIGINS' },
  tlsCert: { flag: 'tls-cert', env: 'TLS_CERT' },
  tlsKey: { flag: 'tls-key', env: 'TLS_KEY' },
  trustProxy: { flag: 'trust-proxy', env: 'TRUST_PROXY' },
  metrics: { flag: 'metrics', env: 'METRICS' },
  logLevel: { flag: 'log-level', env: 'LOG_LEVEL' },
  accessLog: { flag: 'access-log', env: 'ACCESS_LOG' },
  rateLimit: { flag: 'rate-limit', env: 'RATE_LIMIT' },
  maxClientConnections: { flag: 'max-client-connections', env: 'MAX_CLIENT_CONNECTIONS' },
  maxStreams: { flag: 'max-streams', env: 'MAX_STREAMS' },
  maxClientStreams: { flag: 'max-client-streams', env: 'MAX_CLIENT_STREAMS' },
  streamLifetime: { flag: 'stream-lifetime', env: 'STREAM_LIFETIME' },
  dataDir: { flag: 'data-dir', env: 'DATA_DIR' },
  databaseUrl: { flag: 'database-url', env: 'DATABASE_URL' },
  readOnly: { flag: 'read-only', env: 'READ_ONLY', switch: true },
  inferenceServing: { flag: 'inference-serving', env: 'INFERENCE_SERVING_ADDRESS' },
  pccsUrl: { flag: 'pccs-url', env: 'PCCS_URL' },
  teeTcbStatuses: { flag: 'tee-tcb-statuses', env: 'TEE_TCB_STATUSES', repeatable: true },
  teeAllowedAdvisories: { flag: 'tee-allowed-advisories', env: 'TEE_ALLOWED_ADVISORIES', repeatable: true },
  teeComposeHashes: { flag: 'tee-compose-hashes', env: 'TEE_COMPOSE_HASHES', repeatable: true },
  teeMrtds: { flag: 'tee-mrtds', env: 'TEE_MRTDS', repeatable: true },
  teeCollateralMaxAge: { flag: 'tee-collateral-max-age', env: 'TEE_COLLATERAL_MAX_AGE' },
  teeGpuVerifier: { flag: 'tee-gpu-verifier', env: 'TEE_GPU_VERIFIER' },
} as const satisfies Record<ConfigKey, ConfigSource>

/** Each setting's value when neither a flag, a variable, the network preset nor the deployment record gives one. */
export const configDefaults = {
  pollIntervalMs: '3000',
  deploymentPath: 'devnet/deployment.json',
  port: '8080',
  host: '127.0.0.1',
  mcpPort: '8081',
  sellerPort: '8082',
  indexerUrl: null,
  mcpSource: null,
  startBlock: null,
  rpcRateLimit: null,
  logRange: null,
  allowedHosts: '',
  allowedOrigins: '',
  tlsCert: null,
  tlsKey: null,
  trustProxy: '',
  metrics: 'on',
  logLevel: 'info',
  accessLog: 'off',
  // A frontend's page load and polls, watchJob's, and the explorer's stay far below both (README, Rate limits).
  rateLimit: '1200',
  maxClientConnections: '64',
  // Half the server's 512 connections: REST keeps room however many pages follow the feed.
  maxStreams: '256',
  // A few tabs of one user, or the users behind one NAT; one stream filters for many jobs.
  maxClientStreams: '8',
  // Long enough to cost little in reconnects, short enough that a new replica gets its share within the hour.
  streamLifetime: '1800',
  databaseUrl: null,
  readOnly: 'off',
  // Intel's own service: an operator with a PCCS of their own (a cache in their network) names it.
  pccsUrl: 'https://api.trustedservices.intel.com',
  inferenceServing: null,
  teeTcbStatuses: defaultTcbPolicy.acceptedStatuses.join(','),
  teeAllowedAdvisories: '',
  teeComposeHashes: '',
  teeMrtds: '',
  // Off: sending a provider's GPU evidence to NVIDIA is the operator's choice (NRAS has its own terms).
  // A day: a revocation Intel publishes reaches the verdicts within a day, at one fetch a platform a day.
  teeCollateralMaxAge: '86400',
  teeGpuVerifier: null,
} satisfies Partial<Record<ConfigKey, string | null>>

/** Written as a flag or variable value, these switch an optional URL off. */
const noneValues = new Set(['', 'none'])
const nullableKeys = new Set<ConfigKey>(['explorerUrl', 'indexerUrl', 'mcpSource', 'startBlock', 'deployTimestamp', 'wsRpcUrl', 'rpcRateLimit', 'logRange', 'tlsCert', 'tlsKey', 'dataDir', 'databaseUrl', 'inferenceServing', 'teeGpuVerifier'])

export type LoadConfigParameters = {
  argv: readonly string[]
  env: Readonly<Record<string, string | undefined>>
  /** The network when neither `--network` nor `MARKET_NETWORK` names one. */
  defaultNetwork?: NetworkName
  /** The devnet's deployment when the caller just made it (`npm start`); else the record is read. */
  deployment?: Deployment
}

type Setting = { value: string | null; from: string }

/**
 * Builds the configuration from flags (first), environment variables, the network preset and,
 * for the devnet, the deployment record. Throws a ConfigError naming the flag or variable at fault.
 */
export function loadConfig({ argv, env, defaultNetwork = 'devnet', deployment }: LoadConfigParameters): Config {
  const flags = parseFlags(argv)
  const settings = new Map<ConfigKey, Setting>()
  for (const key of Object.keys(configSources) as ConfigKey[]) {
    const { flag, env: variable } = configSources[key]
    const flagValue = flags[flag]
    const envValue = env[variable]
    if (flagValue !== undefined) settings.set(key, { value: flagValue, from: `--${flag}` })
    else if (envValue !== undefined && envValue !== '') settings.set(key, { value: envValue, from: variable })
  }
  for (const [key, setting] of settings) {
    if (nullableKeys.has(key) && setting.value !== null && noneValues.has(setting.value)) setting.value = null
  }

  const network = settings.get('network') ?? { value: defaultNetwork, from: 'the default network' }
  if (!isNetworkName(network.value)) {
    throw new ConfigError(
      `${network.from} must be one of ${networkNames.join(', ')}, got ${network.value === null ? 'nothing' : quoteSetting(network.value)}.`,
    )
  }
  const preset = networks[network.value]
  const presetFrom = `the ${network.value} preset`
  const fallback = (key: ConfigKey, value: string | null, from: string): void => {
    if (!settings.has(key)) settings.set(key, { value, from })
  }

  let teeRootCa: Hex | null = null
  if (preset.contracts === undefined) {
    const addressKeys = ['registry', 'escrow', 'arbiter', 'attestationVerifier'] as const
    const path = resolve(settings.get('deploymentPath')?.value ?? configDefaults.deploymentPath)
    const from = deployment === undefined ? `the deployment record "${path}"` : 'the started devnet'
    if (addressKeys.some((key) => !settings.has(key))) {
      const record = deployment ?? readDeploymentRecord(path)
      for (const key of addressKeys) fallback(key, record[key], from)
      fallback('chainId', String(record.chainId), from)
      fallback('startBlock', String(record.deployBlock), from)
    }
    // The devnet's TEE (its 0G contract, PCCS and root) has no flag for the root: it comes from the
    // record, and only from a record of the very registry configured (never a stale one's).
    const record = deployment ?? (existsSync(path) ? readDeploymentRecord(path) : undefined)
    if (record?.tee !== undefined && settings.get('registry')?.value?.toLowerCase() === record.registry.toLowerCase()) {
      fallback('inferenceServing', record.tee.inferenceServing, from)
      fallback('pccsUrl', record.tee.pccsUrl, from)
      teeRootCa = record.tee.rootCa
    }
  } else {
    for (const [key, value] of Object.entries(preset.contracts)) fallback(key as ConfigKey, value, presetFrom)
  }
  fallback('inferenceServing', preset.inferenceServing, presetFrom)
  fallback('chainId', String(preset.chainId), presetFrom)
  fallback('rpcUrls', preset.rpcUrl, presetFrom)
  if (preset.wsRpcUrl !== null && typeof preset.wsRpcUrl === 'object') {
    const rpcUrls = settings.get('rpcUrls') as Setting
    // The first node: the one the others stand in for.
    const rpcUrl = rpcUrls.value?.split(',')[0]?.trim() ?? null
    fallback('wsRpcUrl', toWebSocketUrl(rpcUrl), `${presetFrom} (on the host and port of ${rpcUrls.from})`)
  } else {
    fallback('wsRpcUrl', preset.wsRpcUrl, presetFrom)
  }
  fallback('explorerUrl', preset.explorerUrl, presetFrom)
  // A shared database replaces the data dir a network keeps by default.
  fallback('dataDir', settings.get('databaseUrl')?.value == null ? preset.dataDir : null, presetFrom)
  fallback('deployTimestamp', preset.deployTimestamp === null ? null : String(preset.deployTimestamp), presetFrom)
  for (const [key, value] of Object.entries(configDefaults) as [ConfigKey, string | null][]) {
    fallback(key, value, 'the default')
  }
  settings.set('network', network)

  const raw = Object.fromEntries([...settings].map(([key, setting]) => [key, setting.value]))
  const result = ConfigSchema.safeParse(raw)
  if (result.success) {
    checkTlsPair(result.data, settings)
    checkDurability(result.data, settings)
    const { rpcUrls: [rpcUrl, ...fallbackRpcUrls], ...rest } = result.data
    return {
      ...rest,
      rpcUrl,
      fallbackRpcUrls,
      // The devnet's own root, trusted only on the devnet's chain id, whatever else is configured.
      teeRootCa: result.data.chainId === networks.devnet.chainId ? teeRootCa : null,
      deploymentPath: resolve(result.data.deploymentPath),
      dataDir: result.data.dataDir === null ? null : resolve(result.data.dataDir),
    }
  }
  const messages = result.error.issues.map((issue) => {
    const key = issue.path[0] as ConfigKey
    const setting = settings.get(key)
    const got = setting?.value === undefined || setting.value === null ? 'nothing' : quoteSetting(setting.value)
    return `${setting?.from ?? key} must be ${issue.message}, got ${got}.`
  })
  throw new ConfigError(messages.join(' '), { cause: result.error })
}

/** The flags given, by name, each as the text its variable would hold; a ConfigError for an unknown one. */
export function parseFlags(argv: readonly string[]): Partial<Record<string, string>> {
  const options = Object.fromEntries(
    Object.values(configSources).map((source: ConfigSource) => [
      source.flag,
      source.switch === true ? { type: 'boolean' as const } : { type: 'string' as const, multiple: source.repeatable === true },
    ]),
  )
  try {
    const { values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false })
    // A repeated flag reads as the comma-separated list its variable holds.
    return Object.fromEntries(
      Object.entries(values).map(([flag, value]) => [flag, Array.isArray(value) ? value.join(',') : typeof value === 'boolean' ? (value ? 'on' : 'off') : value]),
    )
  } catch (cause) {
    const known = Object.values(configSources)
      .map(({ flag }) => `--${flag}`)
      .join(', ')
    const reason = withQuotedSettings((cause instanceof Error ? cause.message : String(cause)).replace(/\s*\n\s*/g, ' ').replace(/\.?$/, '.'))
    throw new ConfigError(`${reason} Known options: ${known}.`, { cause })
  }
}

/** Node's parseArgs quotes the offending argument ('...'), which may be a key given in the wrong place. */
function withQuotedSettings(message: string): string {
  return message.replace(/'([^']*)'/g, (quoted, argument: string) => (canQuoteSetting(argument) ? quoted : `(${quoteSetting(argument)})`))
}

/** ws:// for http://, wss:// for https://, same host, port and path; null for anything else (the RPC URL's own check says why). */
function toWebSocketUrl(rpcUrl: string | null): string | null {
  if (rpcUrl === null || !URL.canParse(rpcUrl)) return null
  const url = new URL(rpcUrl)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  return url.toString()
}

/** A certificate without its key, or the reverse, would leave the server on plain HTTP: refused. */
function checkTlsPair({ tlsCert, tlsKey }: Pick<ConfigSettings, 'tlsCert' | 'tlsKey'>, settings: ReadonlyMap<ConfigKey, Setting>): void {
  if ((tlsCert === null) === (tlsKey === null)) return
  const [given, missing] = tlsCert === null ? (['tlsKey', 'tlsCert'] as const) : (['tlsCert', 'tlsKey'] as const)
  const { flag, env } = configSources[missing]
  throw new ConfigError(
    `${settings.get(given)?.from ?? configSources[given].flag} is set but --${flag} (${env}) is not: HTTPS needs both the certificate and its key, or neither for plain HTTP.`,
  )
}

/** Two places for the index would split it; a replica with nothing shared to read would serve nothing. */
function checkDurability({ dataDir, databaseUrl, readOnly }: Pick<ConfigSettings, 'dataDir' | 'databaseUrl' | 'readOnly'>, settings: ReadonlyMap<ConfigKey, Setting>): void {
  const from = (key: ConfigKey): string => settings.get(key)?.from ?? `--${configSources[key].flag}`
  if (dataDir !== null && databaseUrl !== null)
    throw new ConfigError(`${from('dataDir')} and ${from('databaseUrl')} are both set: the index is kept in one place, a data dir or a Postgres server.`)
  if (readOnly && databaseUrl === null)
    throw new ConfigError(`${from('readOnly')} needs --database-url (DATABASE_URL): a read-only process serves the index a writer keeps in Postgres.`)
}

function isNetworkName(value: string | null): value is NetworkName {
  return networkNames.includes(value as NetworkName)
}
