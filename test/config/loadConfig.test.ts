import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { isSettingGiven } from '../../config/isSettingGiven.ts'
import { loadConfig } from '../../config/loadConfig.ts'
import type { Deployment } from '../../config/deployment.ts'
import { writeDeploymentRecord } from '../../devnet/writeDeploymentRecord.ts'
import { ConfigError } from '../../errors/config.ts'

const directory = mkdtempSync(join(tmpdir(), 'tee-market-config-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const deployment: Deployment = {
  chainId: 31337,
  registry: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  escrow: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
  arbiter: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  attestationVerifier: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  reputationVault: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
  agentToken: '0xa16E02E87b7454126E5E10d957A927A7F5B5d2be',
  deployBlock: '1',
}
const recordPath = join(directory, 'deployment.json')
writeDeploymentRecord(recordPath, deployment)

const errorOf = (run: () => unknown): ConfigError => {
  try {
    run()
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError')
}

test('default', () => {
  expect(loadConfig({ argv: ['--deployment', recordPath], env: {} })).toEqual({
    network: 'devnet',
    chainId: 31337,
    rpcUrl: 'http://127.0.0.1:8545',
    fallbackRpcUrls: [],
    rpcRateLimit: null,
    logRange: null,
    wsRpcUrl: 'ws://127.0.0.1:8545',
    explorerUrl: null,
    registry: deployment.registry,
    escrow: deployment.escrow,
    arbiter: deployment.arbiter,
    attestationVerifier: deployment.attestationVerifier,
    startBlock: 1n,
    deployTimestamp: null,
    pollIntervalMs: 3000,
    deploymentPath: recordPath,
    port: 8080,
    host: '127.0.0.1',
    mcpPort: 8081,
    sellerPort: 8082,
    tlsCert: null,
    tlsKey: null,
    trustProxy: [],
    indexerUrl: null,
    mcpSource: null,
    allowedHosts: [],
    allowedOrigins: [],
    metrics: 'on',
    logLevel: 'info',
    accessLog: false,
    rateLimit: 1200,
    maxClientConnections: 64,
    maxStreams: 256,
    maxClientStreams: 8,
    streamLifetime: 1800,
    dataDir: null,
    databaseUrl: null,
    readOnly: false,
    inferenceServing: null,
    pccsUrl: 'https://api.trustedservices.intel.com',
    teeTcbStatuses: ['UpToDate', 'SWHardeningNeeded'],
    teeAllowedAdvisories: [],
    teeComposeHashes: [],
    teeMrtds: [],
    teeCollateralMaxAge: 86_400,
    teeGpuVerifier: null,
    teeRootCa: null,
  })
})

describe('the TEE policy', () => {
  const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv: ['--deployment', recordPath, ...argv], env })
  const hash = `0x${'Ab'.repeat(32)}`
  const mrTd = `0x${'Cd'.repeat(48)}`

  test('by flag (repeated or comma-separated) and by variable; statuses in any case, ids upper-cased, hex lower-cased', () => {
    expect(load(['--tee-tcb-statuses', 'uptodate', '--tee-tcb-statuses', 'OutOfDate'])).toMatchObject({ teeTcbStatuses: ['UpToDate', 'OutOfDate'] })
    expect(load([], { TEE_ALLOWED_ADVISORIES: 'intel-sa-00615, INTEL-SA-00828' })).toMatchObject({ teeAllowedAdvisories: ['INTEL-SA-00615', 'INTEL-SA-00828'] })
    expect(load(['--tee-compose-hashes', hash, '--tee-mrtds', mrTd])).toMatchObject({ teeComposeHashes: [hash.toLowerCase()], teeMrtds: [mrTd.toLowerCase()] })
    expect(load(['--tee-mrtds', mrTd], { TEE_MRTDS: `0x${'00'.repeat(48)}` }).teeMrtds).toEqual([mrTd.toLowerCase()])
  })

  test('what each refuses, saying what it takes', () => {
    expect(errorOf(() => load(['--tee-tcb-statuses', 'UpToDate,Revoked'])).message).toBe(
      '--tee-tcb-statuses must be a comma-separated list of UpToDate, SWHardeningNeeded, ConfigurationNeeded, ConfigurationAndSWHardeningNeeded, OutOfDate, OutOfDateConfigurationNeeded, got "UpToDate,Revoked".',
    )
    expect(errorOf(() => load([], { TEE_TCB_STATUSES: ',' })).message).toContain('TEE_TCB_STATUSES must be a comma-separated list of UpToDate')
    expect(errorOf(() => load(['--tee-allowed-advisories', 'INTEL-SA-615'])).message).toContain('--tee-allowed-advisories must be a comma-separated list of Intel advisory ids')
    expect(errorOf(() => load(['--tee-compose-hashes', mrTd])).message).toContain('--tee-compose-hashes must be a comma-separated list of 0x-prefixed 32-byte hex compose hashes')
    expect(errorOf(() => load(['--tee-mrtds', hash])).message).toContain('--tee-mrtds must be a comma-separated list of 0x-prefixed 48-byte hex MRTDs')
  })
})

test("--tee-collateral-max-age: seconds, from a minute to Intel's 30 days", () => {
  const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv: ['--deployment', recordPath, ...argv], env })
  expect(load(['--tee-collateral-max-age', '3600']).teeCollateralMaxAge).toBe(3_600)
  expect(load([], { TEE_COLLATERAL_MAX_AGE: '60' }).teeCollateralMaxAge).toBe(60)
  for (const value of ['59', '2592001', '1h']) {
    expect(errorOf(() => load(['--tee-collateral-max-age', value])).message).toBe(
      `--tee-collateral-max-age must be a whole number of seconds from 60 to 2592000 (30 days), got "${value}".`,
    )
  }
})

describe('--tee-gpu-verifier and TEE_GPU_VERIFIER', () => {
  const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv: ['--deployment', recordPath, ...argv], env })

  test('an http(s) base URL, its trailing slash dropped; off (null) by default, and with none or empty', () => {
    expect(load(['--tee-gpu-verifier', 'https://nras.attestation.nvidia.com/']).teeGpuVerifier).toBe('https://nras.attestation.nvidia.com')
    expect(load([], { TEE_GPU_VERIFIER: 'http://127.0.0.1:9000' }).teeGpuVerifier).toBe('http://127.0.0.1:9000')
    expect(load([]).teeGpuVerifier).toBeNull()
    expect(load(['--tee-gpu-verifier', 'none'], { TEE_GPU_VERIFIER: 'https://nras.attestation.nvidia.com' }).teeGpuVerifier).toBeNull()
    expect(load(['--tee-gpu-verifier', '']).teeGpuVerifier).toBeNull()
  })

  test('anything else is refused, saying what it takes', () => {
    expect(errorOf(() => load(['--tee-gpu-verifier', 'nras.attestation.nvidia.com'])).message).toBe(
      '--tee-gpu-verifier must be an http:// or https:// base URL of an NVIDIA remote attestation service, e.g. https://nras.attestation.nvidia.com (or "none"), got "nras.attestation.nvidia.com".',
    )
    expect(errorOf(() => load([], { TEE_GPU_VERIFIER: 'ftp://nras.example' })).message).toContain('TEE_GPU_VERIFIER must be an http:// or https:// base URL')
  })
})

describe('per-client limits', () => {
  test('--rate-limit and --max-client-connections take whole numbers, 0 for none', () => {
    const load = (argv: string[], env: Record<string, string> = {}) =>
      loadConfig({ argv: ['--deployment', recordPath, ...argv], env })
    expect(load(['--rate-limit', '0']).rateLimit).toBe(0)
    expect(load([], { RATE_LIMIT: '6000', MAX_CLIENT_CONNECTIONS: '0' })).toMatchObject({ rateLimit: 6000, maxClientConnections: 0 })
    expect(() => load(['--rate-limit', '1.5'])).toThrow('--rate-limit must be a whole number of requests per minute (0 for no limit), got "1.5".')
    expect(() => load(['--max-client-connections', 'many'])).toThrow('--max-client-connections must be a whole number of connections (0 for no cap), got "many".')
  })
})

describe('observability', () => {
  test('--metrics is on, off or a port of its own', () => {
    const load = (argv: string[], env: Record<string, string> = {}) =>
      loadConfig({ argv: ['--deployment', recordPath, ...argv], env })
    expect(load(['--metrics', 'off']).metrics).toBe('off')
    expect(load([], { METRICS: '9464' }).metrics).toEqual({ port: 9464 })
    expect(() => load(['--metrics', 'yes'])).toThrow('--metrics must be on, off or a TCP port number from 0 to 65535, got "yes".')
  })

  test('--log-level and LOG_LEVEL take a pino level; --access-log on or off', () => {
    const load = (argv: string[], env: Record<string, string> = {}) =>
      loadConfig({ argv: ['--deployment', recordPath, ...argv], env })
    expect(load([], { LOG_LEVEL: 'debug' }).logLevel).toBe('debug')
    expect(load(['--log-level', 'WARN']).logLevel).toBe('warn')
    expect(() => load(['--log-level', 'loud'])).toThrow('--log-level must be one of fatal, error, warn, info, debug, trace, silent, got "loud".')
    expect(load(['--access-log', 'on']).accessLog).toBe(true)
    expect(() => load(['--access-log', '1'])).toThrow('--access-log must be on or off, got "1".')
  })
})

describe('network', () => {
  test('0g-mainnet preset', () => {
    expect(loadConfig({ argv: ['--network', '0g-mainnet'], env: {} })).toMatchObject({
      network: '0g-mainnet',
      chainId: 16661,
      rpcUrl: 'https://evmrpc.0g.ai',
      wsRpcUrl: null,
      explorerUrl: 'https://chainscan.0g.ai',
      registry: '0x152A5a433A6592df57d7F77B7B01eEE00C481C2d',
      escrow: '0xB2b762Df53294923d3eaD00d8118AD37388dD4aA',
      arbiter: '0x324E5b2183134EB239C7E934438831a15abe7C00',
      attestationVerifier: '0x765C857B6764c90B0093Ea16f6103902665D0aa2',
      startBlock: null,
      deployTimestamp: 1778219793,
    })
  })

  test('MARKET_NETWORK and defaultNetwork; the flag wins', () => {
    expect(loadConfig({ argv: [], env: { MARKET_NETWORK: '0g-mainnet' } }).chainId).toBe(16661)
    expect(loadConfig({ argv: [], env: {}, defaultNetwork: '0g-mainnet' }).chainId).toBe(16661)
    expect(
      loadConfig({ argv: ['--network', 'devnet', '--deployment', recordPath], env: { MARKET_NETWORK: '0g-mainnet' } }).chainId,
    ).toBe(31337)
  })

  test('unknown network', () => {
    expect(errorOf(() => loadConfig({ argv: ['--network', 'sepolia'], env: {} })).message).toMatchInlineSnapshot(
      `"--network must be one of devnet, 0g-mainnet, got "sepolia"."`,
    )
    expect(errorOf(() => loadConfig({ argv: [], env: { MARKET_NETWORK: 'mainnet' } })).message).toMatchInlineSnapshot(
      `"MARKET_NETWORK must be one of devnet, 0g-mainnet, got "mainnet"."`,
    )
  })
})

describe('overrides', () => {
  test('every preset value can be overridden by a flag', () => {
    const config = loadConfig({
      argv: [
        '--network=0g-mainnet',
        '--rpc-url', 'https://rpc.example.org/v1/',
        '--chain-id', '16600',
        '--registry', '0x0000000000000000000000000000000000000001',
        '--escrow', '0x00000000000000000000000000000000000000aa',
        '--arbiter', '0x0000000000000000000000000000000000000003',
        '--attestation-verifier', '0x0000000000000000000000000000000000000004',
        '--start-block', '123456',
        '--deploy-timestamp', '1700000000',
        '--poll-interval', '500',
        '--explorer-url', 'none',
        '--port', '0',
        '--host', '0.0.0.0',
        '--mcp-port', '9001',
        '--seller-port', '9002',
        '--indexer-url', 'http://127.0.0.1:8080',
      ],
      env: {},
    })
    expect(config).toMatchObject({
      rpcUrl: 'https://rpc.example.org/v1',
      chainId: 16600,
      registry: '0x0000000000000000000000000000000000000001',
      escrow: '0x00000000000000000000000000000000000000AA',
      startBlock: 123456n,
      deployTimestamp: 1700000000,
      pollIntervalMs: 500,
      explorerUrl: null,
      port: 0,
      host: '0.0.0.0',
      mcpPort: 9001,
      sellerPort: 9002,
      indexerUrl: 'http://127.0.0.1:8080',
    })
  })

  test('environment variables, below flags; empty variables are unset', () => {
    const env = { RPC_URL: 'http://127.0.0.1:9545', PORT: '3000', HOST: '', MCP_PORT: '3001', POLL_INTERVAL_MS: '250' }
    expect(loadConfig({ argv: ['--deployment', recordPath, '--port', '4000'], env })).toMatchObject({
      rpcUrl: 'http://127.0.0.1:9545',
      port: 4000,
      host: '127.0.0.1',
      mcpPort: 3001,
      pollIntervalMs: 250,
    })
  })

  test('devnet addresses given by flags need no deployment record', () => {
    const config = loadConfig({
      argv: [
        '--deployment', join(directory, 'absent.json'),
        '--registry', deployment.registry.toLowerCase(),
        '--escrow', deployment.escrow,
        '--arbiter', deployment.arbiter,
        '--attestation-verifier', deployment.attestationVerifier,
      ],
      env: {},
    })
    expect(config.registry).toBe(deployment.registry)
    expect(config.startBlock).toBeNull()
  })

  test('a deployment passed in replaces the record', () => {
    const config = loadConfig({
      argv: ['--deployment', join(directory, 'absent.json')],
      env: {},
      deployment: { ...deployment, deployBlock: '7' },
    })
    expect(config.startBlock).toBe(7n)
  })
})

describe('RPC nodes and their limits', () => {
  const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv: ['--deployment', recordPath, ...argv], env })

  test('--rpc-url repeated, or RPC_URL as a list: the first is rpcUrl, the rest fall back in order', () => {
    expect(load(['--rpc-url', 'http://127.0.0.1:9545/', '--rpc-url', 'https://b.example.org', '--rpc-url', 'https://c.example.org'])).toMatchObject({
      rpcUrl: 'http://127.0.0.1:9545',
      fallbackRpcUrls: ['https://b.example.org', 'https://c.example.org'],
      wsRpcUrl: 'ws://127.0.0.1:9545',
    })
    expect(load([], { RPC_URL: 'https://a.example.org, https://b.example.org,' })).toMatchObject({
      rpcUrl: 'https://a.example.org',
      fallbackRpcUrls: ['https://b.example.org'],
      wsRpcUrl: 'wss://a.example.org',
    })
    expect(load(['--rpc-url', 'https://flag.example.org'], { RPC_URL: 'https://a.example.org,https://b.example.org' })).toMatchObject({
      rpcUrl: 'https://flag.example.org',
      fallbackRpcUrls: [],
    })
  })

  test('--rpc-rate-limit and RPC_RATE_LIMIT: requests per second per node, none by default', () => {
    expect(load(['--rpc-rate-limit', '25']).rpcRateLimit).toBe(25)
    expect(load([], { RPC_RATE_LIMIT: '10' }).rpcRateLimit).toBe(10)
    expect(load(['--rpc-rate-limit', 'none'], { RPC_RATE_LIMIT: '10' }).rpcRateLimit).toBeNull()
  })

  test('--log-range and LOG_RANGE: the widest eth_getLogs range in blocks, none by default', () => {
    expect(load(['--log-range', '1000']).logRange).toBe(1000n)
    expect(load([], { LOG_RANGE: '50000' }).logRange).toBe(50000n)
    expect(load([], { LOG_RANGE: 'none' }).logRange).toBeNull()
  })

  test('--data-dir, --database-url and --read-only: where the index is kept, in memory by default on the devnet', () => {
    expect(load(['--data-dir', 'var/index']).dataDir).toBe(join(process.cwd(), 'var/index'))
    expect(load([], { DATA_DIR: '/srv/index' }).dataDir).toBe('/srv/index')
    expect(loadConfig({ argv: ['--network', '0g-mainnet'], env: {} }).dataDir).toBe(join(process.cwd(), '.tee-market/0g-mainnet'))
    expect(loadConfig({ argv: ['--network', '0g-mainnet', '--data-dir', 'none'], env: {} }).dataDir).toBeNull()
    const replica = load(['--database-url', 'postgres://indexer@db.example.org/market', '--read-only'])
    expect(replica).toMatchObject({ databaseUrl: 'postgres://indexer@db.example.org/market', readOnly: true, dataDir: null })
    expect(load([], { DATABASE_URL: 'postgresql://db/market', READ_ONLY: 'on' }).readOnly).toBe(true)
    // A shared database replaces the data dir a network keeps by default.
    expect(loadConfig({ argv: ['--network', '0g-mainnet', '--database-url', 'postgres://db/market'], env: {} }).dataDir).toBeNull()
    expect(errorOf(() => load(['--data-dir', 'a', '--database-url', 'postgres://db/market'])).message).toMatchInlineSnapshot(`"--data-dir and --database-url are both set: the index is kept in one place, a data dir or a Postgres server."`)
    expect(errorOf(() => load(['--read-only'])).message).toMatchInlineSnapshot(`"--read-only needs --database-url (DATABASE_URL): a read-only process serves the index a writer keeps in Postgres."`)
    expect(errorOf(() => load(['--database-url', 'mysql://db/market'])).message).toMatchInlineSnapshot(`"--database-url must be a postgres:// or postgresql:// URL (or "none"), got "mysql://db/market"."`)
  })

  test('bad values', () => {
    expect(errorOf(() => load(['--rpc-url', 'https://a.example.org', '--rpc-url', 'ftp://b.example.org'])).message).toMatchInlineSnapshot(
      `"--rpc-url must be one or more http:// or https:// URLs (comma-separated, or the flag repeated), got "https://a.example.org,ftp://b.example.org"."`,
    )
    expect(errorOf(() => load([], { RPC_URL: ' , ' })).message).toMatchInlineSnapshot(
      `"RPC_URL must be one or more http:// or https:// URLs (comma-separated, or the flag repeated), got " , "."`,
    )
    expect(errorOf(() => load(['--rpc-rate-limit', '0'])).message).toMatchInlineSnapshot(
      `"--rpc-rate-limit must be a positive whole number of requests per second (or "none"), got "0"."`,
    )
    expect(errorOf(() => load([], { RPC_RATE_LIMIT: '2.5' })).message).toMatchInlineSnapshot(
      `"RPC_RATE_LIMIT must be a positive whole number of requests per second (or "none"), got "2.5"."`,
    )
    expect(errorOf(() => load(['--log-range=-1'])).message).toMatchInlineSnapshot(
      `"--log-range must be a positive whole number of blocks (or "none"), got "-1"."`,
    )
    expect(errorOf(() => load([], { LOG_RANGE: '10k' })).message).toMatchInlineSnapshot(
      `"LOG_RANGE must be a positive whole number of blocks (or "none"), got "10k"."`,
    )
  })
})

describe('WebSocket RPC URL', () => {
  const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv: ['--deployment', recordPath, ...argv], env })

  test('the devnet serves WebSocket on its RPC host and port, wherever the RPC URL came from', () => {
    expect(load(['--rpc-url', 'http://127.0.0.1:9545']).wsRpcUrl).toBe('ws://127.0.0.1:9545')
    expect(load([], { RPC_URL: 'https://node.example.org:8443/rpc/' }).wsRpcUrl).toBe('wss://node.example.org:8443/rpc')
  })

  test('a flag or variable sets it, the flag first; "none" polls only', () => {
    expect(load(['--ws-rpc-url', 'ws://127.0.0.1:9546/'], { WS_RPC_URL: 'ws://127.0.0.1:1' }).wsRpcUrl).toBe('ws://127.0.0.1:9546')
    expect(load([], { WS_RPC_URL: 'wss://ws.example.org/v3/key' }).wsRpcUrl).toBe('wss://ws.example.org/v3/key')
    expect(load(['--ws-rpc-url', 'none']).wsRpcUrl).toBeNull()
    expect(load([], { WS_RPC_URL: 'none' }).wsRpcUrl).toBeNull()
    expect(load([], { WS_RPC_URL: '' }).wsRpcUrl).toBe('ws://127.0.0.1:8545')
    expect(loadConfig({ argv: ['--network', '0g-mainnet', '--ws-rpc-url', 'wss://ws.example.org'], env: {} }).wsRpcUrl).toBe(
      'wss://ws.example.org',
    )
  })

  test('anything but a ws:// or wss:// URL is refused, naming where it came from', () => {
    expect(errorOf(() => load(['--ws-rpc-url', 'http://127.0.0.1:8545'])).message).toMatchInlineSnapshot(
      `"--ws-rpc-url must be a ws:// or wss:// URL (or "none" to poll only), got "http://127.0.0.1:8545"."`,
    )
    expect(errorOf(() => load([], { WS_RPC_URL: '127.0.0.1:8546' })).message).toMatchInlineSnapshot(
      `"WS_RPC_URL must be a ws:// or wss:// URL (or "none" to poll only), got "127.0.0.1:8546"."`,
    )
  })
})

describe('errors', () => {
  test('a bad value names the flag and quotes the value', () => {
    const load = (...argv: string[]) => errorOf(() => loadConfig({ argv: ['--deployment', recordPath, ...argv], env: {} }))
    expect(load('--poll-interval', 'abc').message).toMatchInlineSnapshot(
      `"--poll-interval must be a positive number of milliseconds, got "abc"."`,
    )
    expect(load('--poll-interval', '0').message).toMatchInlineSnapshot(
      `"--poll-interval must be a positive number of milliseconds, got "0"."`,
    )
    expect(load('--port', '65536').message).toMatchInlineSnapshot(
      `"--port must be a TCP port number from 0 to 65535, got "65536"."`,
    )
    expect(load('--rpc-url', 'ftp://example.org').message).toMatchInlineSnapshot(
      `"--rpc-url must be one or more http:// or https:// URLs (comma-separated, or the flag repeated), got "ftp://example.org"."`,
    )
    expect(load('--registry', '0x1234').message).toMatchInlineSnapshot(
      `"--registry must be a 0x-prefixed 20-byte hex address, got "0x1234"."`,
    )
    expect(load('--start-block=-1').message).toMatchInlineSnapshot(
      `"--start-block must be a block number (a non-negative integer), got "-1"."`,
    )
    expect(load('--chain-id', '1.5').message).toMatchInlineSnapshot(
      `"--chain-id must be a positive integer, got "1.5"."`,
    )
  })

  test('a bad environment variable is named, and every problem is reported', () => {
    const error = errorOf(() =>
      loadConfig({ argv: ['--deployment', recordPath], env: { POLL_INTERVAL_MS: '3s', MCP_PORT: 'x' } }),
    )
    expect(error.code).toBe('invalid_config')
    expect(error.message).toMatchInlineSnapshot(
      `"POLL_INTERVAL_MS must be a positive number of milliseconds, got "3s". MCP_PORT must be a TCP port number from 0 to 65535, got "x"."`,
    )
  })

  test('unknown flags, missing values and positionals', () => {
    expect(errorOf(() => loadConfig({ argv: ['--pol-interval', '5'], env: {} })).message).toMatch(
      /^Unknown option '--pol-interval'\. Known options: --network, --rpc-url, /,
    )
    expect(errorOf(() => loadConfig({ argv: ['--port'], env: {} })).message).toMatch(
      /^Option '--port <value>' argument missing\. Known options: /,
    )
    expect(errorOf(() => loadConfig({ argv: ['devnet'], env: {} })).message).toMatch(/^Unexpected argument 'devnet'/)
  })

  test('a value that could be a key is never quoted, wherever it was given', () => {
    const key = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'
    const messages = [
      errorOf(() => loadConfig({ argv: ['--deployment', recordPath, '--port', key], env: {} })).message,
      errorOf(() => loadConfig({ argv: ['--deployment', recordPath], env: { RPC_URL: key } })).message,
      errorOf(() => loadConfig({ argv: ['--deployment', recordPath], env: { MARKET_NETWORK: key } })).message,
      errorOf(() => loadConfig({ argv: [key], env: {} })).message,
      errorOf(() => loadConfig({ argv: [`--${key}`], env: {} })).message,
      errorOf(() => loadConfig({ argv: ['--deployment', recordPath, '--rpc-url', `ftp://rpc.example/v3/${key.slice(2, 34)}`], env: {} })).message,
    ]
    for (const message of messages) expect(message).not.toMatch(/[0-9a-f]{16}/)
    expect(messages[0]).toMatchInlineSnapshot(`"--port must be a TCP port number from 0 to 65535, got a value of 66 characters, not shown as it may hold a key."`)
    expect(messages[3]).toMatchInlineSnapshot(`"Unexpected argument (a value of 66 characters, not shown as it may hold a key). This command does not take positional arguments. Known options: --network, --rpc-url, --rpc-rate-limit, --log-range, --ws-rpc-url, --chain-id, --registry, --escrow, --arbiter, --attestation-verifier, --start-block, --deploy-timestamp, --poll-interval, --explorer-url, --deployment, --port, --host, --mcp-port, --seller-port, --indexer-url, --mcp-source, --allowed-hosts, --allowed-origins, --tls-cert, --tls-key, --trust-proxy, --metrics, --log-level, --access-log, --rate-limit, --max-client-connections, --max-streams, --max-client-streams, --stream-lifetime, --data-dir, --database-url, --read-only, --inference-serving, --pccs-url, --tee-tcb-statuses, --tee-allowed-advisories, --tee-compose-hashes, --tee-mrtds, --tee-collateral-max-age, --tee-gpu-verifier."`)
  })

  test('--mcp-source and MCP_SOURCE: index or chain, unset by default; --mcp-port counts as given only when given', () => {
    const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv: ['--deployment', recordPath, ...argv], env })
    expect(load([]).mcpSource).toBeNull()
    expect(load(['--mcp-source', 'chain']).mcpSource).toBe('chain')
    expect(load([], { MCP_SOURCE: 'index' }).mcpSource).toBe('index')
    expect(() => load(['--mcp-source', 'node'])).toThrow('--mcp-source must be index or chain, got "node".')
    expect(isSettingGiven('mcpPort', { argv: [], env: {} })).toBe(false)
    expect(isSettingGiven('mcpPort', { argv: [], env: { MCP_PORT: '' } })).toBe(false)
    expect(isSettingGiven('mcpPort', { argv: ['--mcp-port', '0'], env: {} })).toBe(true)
    expect(isSettingGiven('mcpPort', { argv: ['--mcp-port=8081'], env: {} })).toBe(true)
    expect(isSettingGiven('mcpPort', { argv: [], env: { MCP_PORT: '8081' } })).toBe(true)
  })

  test('--allowed-hosts and --allowed-origins: comma-separated names, each checked', () => {
    const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv: ['--deployment', recordPath, ...argv], env })
    expect(load(['--allowed-hosts', 'mcp.example.org, Other.example.org']).allowedHosts).toEqual(['mcp.example.org', 'other.example.org'])
    expect(load([], { MCP_ALLOWED_ORIGINS: 'https://app.example.org,http://localhost:3000' }).allowedOrigins).toEqual([
      'https://app.example.org',
      'http://localhost:3000',
    ])
    expect(errorOf(() => load(['--allowed-hosts', 'mcp.example.org:443'])).message).toMatchInlineSnapshot(
      `"--allowed-hosts must be a comma-separated list of host names without port, e.g. mcp.example.org, got "mcp.example.org:443"."`,
    )
    expect(errorOf(() => load(['--allowed-origins', 'https://app.example.org/path'])).message).toMatchInlineSnapshot(
      `"--allowed-origins must be a comma-separated list of origins (scheme://host[:port]), e.g. https://app.example.org, got "https://app.example.org/path"."`,
    )
  })

  test('--tls-cert and --tls-key: both or neither; --trust-proxy: addresses and ranges, each checked', () => {
    const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv: ['--deployment', recordPath, ...argv], env })
    expect(load([], { TLS_CERT: '/etc/tls/fullchain.pem', TLS_KEY: '/etc/tls/privkey.pem' })).toMatchObject({
      tlsCert: '/etc/tls/fullchain.pem',
      tlsKey: '/etc/tls/privkey.pem',
    })
    expect(load(['--tls-cert', 'none', '--tls-key', 'none'])).toMatchObject({ tlsCert: null, tlsKey: null })
    expect(errorOf(() => load([], { TLS_KEY: '/etc/tls/privkey.pem' })).message).toMatchInlineSnapshot(`"TLS_KEY is set but --tls-cert (TLS_CERT) is not: HTTPS needs both the certificate and its key, or neither for plain HTTP."`)
    expect(load(['--trust-proxy', '127.0.0.1, 10.0.0.0/8,::1,loopback']).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'loopback'])
    expect(errorOf(() => load(['--trust-proxy', '10.0.0.0/33'])).message).toMatchInlineSnapshot(`"--trust-proxy must be a comma-separated list of IP addresses or CIDR ranges (or loopback, linklocal, uniquelocal), e.g. 127.0.0.1,10.0.0.0/8, got "10.0.0.0/33"."`)
    expect(errorOf(() => load(['--trust-proxy', 'proxy.internal'])).message).toMatchInlineSnapshot(`"--trust-proxy must be a comma-separated list of IP addresses or CIDR ranges (or loopback, linklocal, uniquelocal), e.g. 127.0.0.1,10.0.0.0/8, got "proxy.internal"."`)
  })

  test('missing or malformed devnet deployment record', () => {
    const absent = join(directory, 'absent.json')
    expect(errorOf(() => loadConfig({ argv: ['--deployment', absent], env: {} })).message).toBe(
      `The devnet deployment record "${absent}" could not be read. Start the devnet with \`npm start\`, pass --deployment, or pass --registry, --escrow, --arbiter and --attestation-verifier.`,
    )
    const malformed = join(directory, 'malformed.json')
    writeFileSync(malformed, JSON.stringify({ ...deployment, escrow: 'nope' }))
    expect(errorOf(() => loadConfig({ argv: ['--deployment', malformed], env: {} })).message).toBe(
      `The devnet deployment record "${malformed}" is malformed (fields: escrow).`,
    )
    const notJson = join(directory, 'not.json')
    writeFileSync(notJson, '{')
    expect(errorOf(() => loadConfig({ argv: ['--deployment', notJson], env: {} })).message).toBe(
      `The devnet deployment record "${notJson}" is not valid JSON.`,
    )
  })
})

describe("the devnet's TEE, from its deployment record", () => {
  const tee = { inferenceServing: '0x5FbDB2315678afecb367f032d93F642f64180aa3', pccsUrl: 'http://127.0.0.1:8083', rootCa: '0x3082' } as const
  const teeRecordPath = join(directory, 'tee-deployment.json')
  writeDeploymentRecord(teeRecordPath, { ...deployment, tee })
  const flags = ['--registry', deployment.registry, '--escrow', deployment.escrow, '--arbiter', deployment.arbiter, '--attestation-verifier', deployment.attestationVerifier]

  test('the 0G contract, the PCCS and the root come from the record, also with every address given by flags', () => {
    for (const argv of [['--deployment', teeRecordPath], ['--deployment', teeRecordPath, ...flags]]) {
      expect(loadConfig({ argv, env: {} })).toMatchObject({ inferenceServing: tee.inferenceServing, pccsUrl: tee.pccsUrl, teeRootCa: tee.rootCa })
    }
  })

  test("the root is trusted on the devnet's chain id only", () => {
    const config = loadConfig({ argv: ['--deployment', teeRecordPath, ...flags, '--chain-id', '16661'], env: {} })
    expect(config.teeRootCa).toBeNull()
    expect(config.inferenceServing).toBe(tee.inferenceServing)
  })

  test('a record of another registry lends nothing', () => {
    const config = loadConfig({ argv: ['--deployment', teeRecordPath, ...flags.slice(2), '--registry', deployment.escrow], env: {} })
    expect(config).toMatchObject({ inferenceServing: null, pccsUrl: 'https://api.trustedservices.intel.com', teeRootCa: null })
  })

  test("0G mainnet reads 0G's own InferenceServing, Intel's PCS and Intel's root alone", () => {
    const config = loadConfig({ argv: ['--network', '0g-mainnet'], env: {} })
    expect(config).toMatchObject({ inferenceServing: '0x47340d900bdFec2BD393c626E12ea0656F938d84', pccsUrl: 'https://api.trustedservices.intel.com', teeRootCa: null })
  })
})
