import { getAddress, isAddress, type Hex } from 'viem'
import { z } from 'zod'
import { UintStringSchema } from '../contract/primitives.ts'
import { type AcceptableTcbStatus, acceptableTcbStatuses } from '../tee/defaultTcbPolicy.ts'
import { networkNames } from './networks.ts'

/**
 * A field read from a flag, an environment variable or a preset, always as text. A failed check's
 * message is what the field expects, so loadConfig can say "<where> must be <message>, got <value>".
 */
function textField<T>(expects: string, parse: (text: string) => T | undefined) {
  return z.string().transform((text, context): T => {
    const value = parse(text)
    if (value === undefined) {
      context.addIssue({ code: z.ZodIssueCode.custom, message: expects })
      return z.NEVER
    }
    return value
  })
}

const uint = (text: string): bigint | undefined => (UintStringSchema.safeParse(text).success ? BigInt(text) : undefined)

const safeInteger = (min: number, max: number) => (text: string) => {
  const value = uint(text)
  return value !== undefined && value >= BigInt(min) && value <= BigInt(max) ? Number(value) : undefined
}

const httpUrl = (text: string): string | undefined => {
  if (!URL.canParse(text)) return undefined
  const url = new URL(text)
  return url.protocol === 'http:' || url.protocol === 'https:' ? text.replace(/\/+$/, '') : undefined
}

const wsUrl = (text: string): string | undefined => {
  if (!URL.canParse(text)) return undefined
  const url = new URL(text)
  return url.protocol === 'ws:' || url.protocol === 'wss:' ? text.replace(/\/+$/, '') : undefined
}

/** At least one item: what `list` gives, unless it is empty. */
const nonEmpty = <T>(parse: (text: string) => T[] | undefined) => (text: string): [T, ...T[]] | undefined => {
  const items = parse(text)
  return items !== undefined && items.length > 0 ? (items as [T, ...T[]]) : undefined
}

/** Comma-separated items, each checked by `item`; empty for none. */
const list = <T extends string>(item: (text: string) => T | undefined) => (text: string): T[] | undefined => {
  const items = text.split(',').map((part) => part.trim()).filter((part) => part !== '')
  const parsed = items.map(item)
  return parsed.every((value) => value !== undefined) ? (parsed as T[]) : undefined
}

const hostName = (text: string): string | undefined =>
  URL.canParse(`http://${text}`) && new URL(`http://${text}`).hostname === text.toLowerCase() ? text.toLowerCase() : undefined

const origin = (text: string): string | undefined => {
  if (!URL.canParse(text)) return undefined
  const url = new URL(text)
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text.replace(/\/$/, '').toLowerCase() ? url.origin : undefined
}

const proxyAddressNames = ['loopback', 'linklocal', 'uniquelocal']

// zod's checks, not node:net's isIP: this module is also bundled into the explorer.
const ipv4 = z.string().ip({ version: 'v4' })
const ipv6 = z.string().ip({ version: 'v6' })
const isIP = (text: string): 0 | 4 | 6 => (ipv4.safeParse(text).success ? 4 : ipv6.safeParse(text).success ? 6 : 0)

/** An IP address or a CIDR range (`10.0.0.0/8`, `::1/128`), or one of proxy-addr's names for a family of them. */
const proxyAddress = (text: string): string | undefined => {
  if (proxyAddressNames.includes(text)) return text
  const [ip, bits, ...rest] = text.split('/')
  const family = isIP(ip ?? '')
  if (family === 0 || rest.length > 0) return undefined
  if (bits === undefined) return text
  const prefix = safeInteger(0, family === 4 ? 32 : 128)(bits)
  return prefix === undefined ? undefined : text
}

const filePath = (text: string): string | undefined => (text === '' ? undefined : text)

const address = (text: string) => (isAddress(text, { strict: false }) ? getAddress(text) : undefined)

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof logLevels)[number]

const logLevel = (text: string): LogLevel | undefined => logLevels.find((level) => level === text.toLowerCase())

/** `on` serves /metrics on the server's own port, a number on a port of its own, `off` nowhere. */
export type MetricsSetting = 'on' | 'off' | { port: number }

const metricsSetting = (text: string): MetricsSetting | undefined => {
  if (text === 'on' || text === 'off') return text
  const port = safeInteger(0, 65_535)(text)
  return port === undefined ? undefined : { port }
}

const onOff = (text: string): boolean | undefined => (text === 'on' ? true : text === 'off' ? false : undefined)

/** What the MCP read tools read: an index (a store or a REST indexer) or the node itself. */
export type McpSource = 'index' | 'chain'

const mcpSource = (text: string): McpSource | undefined => (text === 'index' || text === 'chain' ? text : undefined)

const postgresUrl = (text: string): string | undefined =>
  URL.canParse(text) && ['postgres:', 'postgresql:'].includes(new URL(text).protocol) ? text : undefined

const tcbStatus = (text: string): AcceptableTcbStatus | undefined => acceptableTcbStatuses.find((status) => status.toLowerCase() === text.toLowerCase())

const advisoryId = (text: string): string | undefined => (/^INTEL-SA-\d{5}$/i.test(text) ? text.toUpperCase() : undefined)

/** 0x and `bytes` bytes of hex, lowercased as measurements are read from a quote. */
const hexOfBytes = (bytes: number) => (text: string): Hex | undefined =>
  new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`).test(text) ? (text.toLowerCase() as Hex) : undefined

const addressField = textField('a 0x-prefixed 20-byte hex address', address)
const portField = textField('a TCP port number from 0 to 65535', safeInteger(0, 65_535))
const urlField = textField('an http:// or https:// URL', httpUrl)

export const ConfigSchema = z.object({
  network: z.enum(networkNames, {
    errorMap: () => ({ message: `one of ${networkNames.join(', ')}` }),
  }),
  chainId: textField('a positive integer', safeInteger(1, Number.MAX_SAFE_INTEGER)),
  /**
   * The JSON-RPC nodes, in order of preference (the flag repeated, or a comma-separated list): the
   * indexer hands a call a node failed or refused to the next. See Config for how consumers see them.
   */
  rpcUrls: textField('one or more http:// or https:// URLs (comma-separated, or the flag repeated)', nonEmpty(list(httpUrl))),
  /** Calls per second each node is sent at most; null: none known, learned from the nodes' rate-limited answers. */
  rpcRateLimit: textField('a positive whole number of requests per second (or "none")', safeInteger(1, 1_000_000)).nullable(),
  /** The widest `eth_getLogs` range, in blocks, the nodes accept; null: found by shrinking on refusals. */
  logRange: textField('a positive whole number of blocks (or "none")', (text) => {
    const blocks = uint(text)
    return blocks !== undefined && blocks > 0n ? blocks : undefined
  }).nullable(),
  /** Where new heads are followed (eth_subscribe) so each starts a poll at once; null to poll only. */
  wsRpcUrl: textField('a ws:// or wss:// URL (or "none" to poll only)', wsUrl).nullable(),
  /** Base URL of a block explorer; transaction pages are `<explorerUrl>/tx/<hash>`. */
  explorerUrl: urlField.nullable(),
  registry: addressField,
  escrow: addressField,
  arbiter: addressField,
  attestationVerifier: addressField,
  /** First block to index; null means "search for it from deployTimestamp". */
  startBlock: textField('a block number (a non-negative integer)', uint).nullable(),
  deployTimestamp: textField('a unix time in seconds', safeInteger(0, Number.MAX_SAFE_INTEGER)).nullable(),
  pollIntervalMs: textField('a positive number of milliseconds', safeInteger(1, 2_147_483_647)),
  /** Where the devnet deployment record is read from and written to. */
  deploymentPath: textField('a file path', filePath),
  /** REST indexer listen port. */
  port: portField,
  host: textField('a host name or IP address', (text) => (/^[^\s/]+$/.test(text) ? text : undefined)),
  /** Hosted MCP server listen port. */
  mcpPort: portField,
  /** Where the devnet's reference seller serves its outputs. */
  sellerPort: portField,
  /** A REST indexer to read through instead of the chain, where one is set. */
  indexerUrl: urlField.nullable(),
  /**
   * What the MCP read tools read. `index`: the indexer's store in this process, else `indexerUrl`.
   * `chain`: the node, on every tool call, which spends its rate limit per call: only when named.
   * Null (unset): `index` for the hosted server; the local server reads `indexerUrl` when set,
   * else the chain (its user's own node and quota).
   */
  mcpSource: textField('index or chain', mcpSource).nullable(),
  /**
   * Host names the hosted MCP server answers to besides the loopback ones, and checks `Host`
   * against (DNS-rebinding protection): the public name when it runs behind a proxy.
   */
  allowedHosts: textField('a comma-separated list of host names without port, e.g. mcp.example.org', list(hostName)),
  /** Browser origins the hosted MCP server accepts besides the loopback ones, e.g. https://app.example.org. */
  allowedOrigins: textField('a comma-separated list of origins (scheme://host[:port]), e.g. https://app.example.org', list(origin)),
  /**
   * PEM certificate (with its chain) and private key: with both, the REST indexer, the hosted MCP
   * server and the reference seller serve HTTPS only, and pick up a renewed pair without a restart.
   */
  tlsCert: textField('a PEM certificate file path (or "none")', filePath).nullable(),
  tlsKey: textField('a PEM private key file path (or "none")', filePath).nullable(),
  /**
   * The reverse proxies in front (addresses or CIDR ranges): only their X-Forwarded-For, -Proto and
   * -Host are believed, for the client's address, scheme and public host name. Empty: none.
   */
  trustProxy: textField(
    `a comma-separated list of IP addresses or CIDR ranges (or ${proxyAddressNames.join(', ')}), e.g. 127.0.0.1,10.0.0.0/8`,
    list(proxyAddress),
  ),
  /**
   * Where the index is kept on disk (embedded PGlite), so that a restart resumes from its cursor;
   * null: in memory only (the devnet's default, its chain being new each time).
   */
  dataDir: textField('a folder path (or "none" to keep the index in memory only)', filePath).nullable(),
  /** A Postgres server keeping the index instead (shared by a writer, its standby and read-only replicas). */
  databaseUrl: textField('a postgres:// or postgresql:// URL (or "none")', postgresUrl).nullable(),
  /** Serve the index a writer keeps in `databaseUrl` without reading the chain. */
  readOnly: textField('on or off', onOff),
  /** Where `GET /metrics` (Prometheus text) is served; see MetricsSetting. */
  metrics: textField('on, off or a TCP port number from 0 to 65535', metricsSetting),
  logLevel: textField(`one of ${logLevels.join(', ')}`, logLevel),
  /** One log line per request at info; off by default, as it costs throughput (see npm run bench). */
  accessLog: textField('on or off', onOff),
  /**
   * Requests one client address may send per minute to the REST API and the hosted MCP server (the
   * forwarded address behind a `trustProxy` one); over it, 429 with Retry-After. 0: no limit.
   */
  rateLimit: textField('a whole number of requests per minute (0 for no limit)', safeInteger(0, 1_000_000_000)),
  /** Connections one client address may hold open on each server (trusted proxies excepted). 0: no cap. */
  maxClientConnections: textField('a whole number of connections (0 for no cap)', safeInteger(0, 1_000_000)),
  /** Live-feed streams (`GET /v1/events`) one server holds at once: each holds a connection, so well below the server's 512. */
  maxStreams: textField('a whole number of streams', safeInteger(1, 1_000_000)),
  /** Live-feed streams one client address may hold (trusted proxies count their clients); a page needs one. */
  maxClientStreams: textField('a whole number of streams', safeInteger(1, 1_000_000)),
  /** Seconds after which a live-feed stream ends and its client resumes from its id, so that streams spread over replicas again. */
  streamLifetime: textField('a whole number of seconds from 1 to 86400', safeInteger(1, 86_400)),
  /** 0G's InferenceServing contract, where a service's provider record is read for its TEE verdict; null: none on this chain (every verdict is `none`). */
  inferenceServing: addressField.nullable(),
  /** Where TDX quotes' collateral comes from: Intel's PCS, or an operator's PCCS (the same v4 API). */
  pccsUrl: urlField,
  /** The TCB statuses a quote's platform may have (tee/defaultTcbPolicy.ts says why the default two). */
  teeTcbStatuses: textField(`a comma-separated list of ${acceptableTcbStatuses.join(', ')}`, nonEmpty(list(tcbStatus))),
  /** Advisories judged harmless here: a status outside teeTcbStatuses passes when each advisory it carries is listed. */
  teeAllowedAdvisories: textField('a comma-separated list of Intel advisory ids, e.g. INTEL-SA-00615 (empty for none)', list(advisoryId)),
  /** Compose hashes a verified TD may run; empty: measured, not appraised. */
  teeComposeHashes: textField('a comma-separated list of 0x-prefixed 32-byte hex compose hashes (empty for any)', list(hexOfBytes(32))),
  /** MRTDs (the TD's firmware image) a verified TD may have; empty: measured, not appraised. */
  teeMrtds: textField('a comma-separated list of 0x-prefixed 48-byte hex MRTDs (empty for any)', list(hexOfBytes(48))),
  /** NVIDIA's Remote Attestation Service (NRAS) the GPU evidence is sent to; null: GPU evidence is not checked (docs/tee.md). */
  /** Seconds after which Intel's collateral is fetched again whatever its expiry: Intel adds revocations to a CRL before its nextUpdate. */
  teeCollateralMaxAge: textField('a whole number of seconds from 60 to 2592000 (30 days)', safeInteger(60, 2_592_000)),
  teeGpuVerifier: textField('an http:// or https:// base URL of an NVIDIA remote attestation service, e.g. https://nras.attestation.nvidia.com (or "none")', httpUrl).nullable(),
})

/** The settings as loadConfig reads them, one per flag. */
export type ConfigSettings = z.output<typeof ConfigSchema>
export type ConfigKey = keyof ConfigSettings

/**
 * The configuration. The nodes are split so that each is named once: `rpcUrl`, the first, is the
 * one node that every consumer talking to a single node uses (MCP, seller, devnet); the indexer
 * also falls back on `fallbackRpcUrls`, in order.
 */
export type Config = Omit<ConfigSettings, 'rpcUrls'> & {
  rpcUrl: string
  fallbackRpcUrls: string[]
  /** The devnet's attestation root (DER), from its deployment record, on the devnet's chain id only; null: Intel's root alone. */
  teeRootCa: Hex | null
}
