import { refuseUnsupportedNode } from '../../config/refuseUnsupportedNode.ts'
import { parseArgs } from 'node:util'
import { type Hex, isHex } from 'viem'
import { z } from 'zod'
import { answerInfoFlags } from '../../config/answerInfoFlags.ts'
import { ConfigSchema } from '../../config/ConfigSchema.ts'
import { readDeploymentRecord } from '../../config/readDeploymentRecord.ts'
import { UintStringSchema } from '../../contract/primitives.ts'
import { BaseError } from '../../errors/BaseError.ts'
import { ConfigError } from '../../errors/config.ts'
import { quoteSetting } from '../../errors/quoteSetting.ts'
import { createLogger } from '../../platform/logging/createLogger.ts'
import { packageVersion } from '../../platform/logging/packageVersion.ts'
import { createBuiltinBackend } from './backends/createBuiltinBackend.ts'
import { createOpenAiBackend } from './backends/createOpenAiBackend.ts'
import type { SellerBackend } from './backends/SellerBackend.ts'
import { seededSellerServices } from './seededSellerServices.ts'
import { type ReferenceSellerService, startReferenceSeller } from './startReferenceSeller.ts'

refuseUnsupportedNode()

const usage = `Usage: npm run seller -- [options]

Runs the devnet's reference seller: answers the Pending jobs of its services, settles them with
a signed attestation and serves each output to its buyer at GET /outputs/<jobId>.

  --rpc-url <url>        JSON-RPC endpoint (default http://127.0.0.1:8545, env RPC_URL)
  --deployment <path>    devnet deployment record (default devnet/deployment.json, env DEPLOYMENT_PATH)
  --port <port>          output endpoint port (default 8082, env SELLER_PORT)
  --host <host>          output endpoint address (default 127.0.0.1)
  --tls-cert <pem>       serve the outputs over HTTPS with this certificate (env TLS_CERT), with --tls-key
  --tls-key <pem>        the certificate's private key (env TLS_KEY); a renewed pair is served without a restart
  --backend <name>       builtin (default: a deterministic answer, no model) or openai
  --openai-url <url>     OpenAI-compatible API base, e.g. http://127.0.0.1:11434/v1 (with --backend openai)
  --model <name>         model sent to that API (default: the service's modelId); key from env OPENAI_API_KEY
  --service <id>         serve this service id (repeatable); keys from env SELLER_PRIVATE_KEY and
                         SIGNING_PRIVATE_KEY (comma-separated for several signing keys).
                         Default: the seeded services of seller #1, with the seed's keys.
  --state-file <path>    keep outputs and scan progress across restarts (default: memory only)
  --from-block <n>       first block to scan (default: the state file's, else the deploy block)
  --poll-interval <ms>   how often to look for new jobs (default 500)
  --indexer-url <url>    learn of new jobs from this REST indexer's live feed (GET /v1/events)
                         instead of scanning the node's JobCreated logs (env INDEXER_URL; none:
                         scan); jobs are still read and answered through --rpc-url
  --cursor-file <path>   with --indexer-url: where the feed's cursor is kept across restarts
                         (default: <state-file>.cursor with --state-file, else memory only)
  -h, --help             print this and exit
  -V, --version          print the version and exit`

// The flag's own message: a refusal reads "--<flag> must be <message>".
const uint = z.string().refine((text) => UintStringSchema.safeParse(text).success, 'a non-negative integer')
const port = uint.transform(Number).refine((value) => value <= 65_535, 'a TCP port from 0 to 65535')
const httpUrl = z
  .string()
  .url('an http:// or https:// URL')
  .refine((value) => /^https?:\/\//.test(value), 'an http:// or https:// URL')
const privateKey = z
  .string()
  .refine((value): value is Hex => isHex(value) && value.length === 66, 'a 0x-prefixed 32-byte hex private key')

const ArgsSchema = z.object({
  'rpc-url': httpUrl.default('http://127.0.0.1:8545'),
  deployment: z.string().min(1).default('devnet/deployment.json'),
  port: port.default('8082'),
  host: z.string().min(1).default('127.0.0.1'),
  'tls-cert': z.string().min(1).optional(),
  'tls-key': z.string().min(1).optional(),
  backend: z.enum(['builtin', 'openai']).default('builtin'),
  'openai-url': httpUrl.optional(),
  model: z.string().min(1).optional(),
  service: z.array(uint.transform(BigInt)).optional(),
  'state-file': z.string().min(1).optional(),
  'from-block': uint.transform(BigInt).optional(),
  'poll-interval': uint.transform(Number).refine((value) => value > 0, 'a positive number').default('500'),
  'indexer-url': httpUrl.optional(),
  'cursor-file': z.string().min(1).optional(),
})

type Args = z.output<typeof ArgsSchema>

function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv): Args {
  let values: Record<string, unknown>
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        'rpc-url': { type: 'string', default: env.RPC_URL },
        deployment: { type: 'string', default: env.DEPLOYMENT_PATH },
        port: { type: 'string', default: env.SELLER_PORT },
        host: { type: 'string' },
        'tls-cert': { type: 'string', default: env.TLS_CERT },
        'tls-key': { type: 'string', default: env.TLS_KEY },
        backend: { type: 'string' },
        'openai-url': { type: 'string' },
        model: { type: 'string' },
        service: { type: 'string', multiple: true },
        'state-file': { type: 'string' },
        'from-block': { type: 'string' },
        'poll-interval': { type: 'string' },
        // The same variable as the hosted MCP server's: the REST indexer of this deployment.
        'indexer-url': { type: 'string', default: env.INDEXER_URL },
        'cursor-file': { type: 'string' },
      },
    }).values
  } catch (cause) {
    const reason = (cause instanceof Error ? cause.message : String(cause)).replace(/\.?$/, '.')
    throw new ConfigError(`${reason} See --help.`, { cause })
  }
  // `none` switches the optional URL off, as in every other configuration.
  const defined = Object.fromEntries(Object.entries(values).filter(([key, value]) => value !== undefined && value !== '' && !(key === 'indexer-url' && value === 'none')))
  const parsed = ArgsSchema.safeParse(defined)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const flag = String(issue.path[0])
    throw new ConfigError(`--${flag} must be ${issue.message}, got ${quoteSetting(String(defined[flag]))}.`)
  }
  if (parsed.data.backend === 'openai' && parsed.data['openai-url'] === undefined) {
    throw new ConfigError('--backend openai needs --openai-url, e.g. http://127.0.0.1:11434/v1.')
  }
  if (parsed.data['indexer-url'] === undefined && parsed.data['cursor-file'] !== undefined) {
    throw new ConfigError('--cursor-file keeps the cursor of --indexer-url (INDEXER_URL): give both, or neither to scan the node.')
  }
  if (parsed.data['indexer-url'] !== undefined && parsed.data['from-block'] !== undefined) {
    throw new ConfigError('--from-block is where the node is scanned; with --indexer-url (INDEXER_URL) the seller follows the feed instead: give one of them.')
  }
  if ((parsed.data['tls-cert'] === undefined) !== (parsed.data['tls-key'] === undefined)) {
    throw new ConfigError('--tls-cert and --tls-key (TLS_CERT, TLS_KEY) go together: HTTPS needs both the certificate and its key, or neither for plain HTTP.')
  }
  return parsed.data
}

function servicesFrom(args: Args, env: NodeJS.ProcessEnv): ReferenceSellerService[] {
  if (args.service === undefined) return seededSellerServices()
  const sellerKey = privateKey.safeParse(env.SELLER_PRIVATE_KEY ?? '')
  if (!sellerKey.success) throw new ConfigError('--service needs SELLER_PRIVATE_KEY: a 0x-prefixed 32-byte hex private key.')
  const signingKeys = (env.SIGNING_PRIVATE_KEY ?? '').split(',').map((key) => privateKey.safeParse(key.trim()))
  const valid = signingKeys.flatMap((key) => (key.success ? [key.data] : []))
  if (valid.length === 0 || valid.length !== signingKeys.length) {
    throw new ConfigError('--service needs SIGNING_PRIVATE_KEY: one or more comma-separated 0x-prefixed 32-byte hex private keys.')
  }
  return args.service.map((serviceId) => ({ serviceId, sellerKey: sellerKey.data, signingKey: valid }))
}

function backendFrom(args: Args, env: NodeJS.ProcessEnv): SellerBackend {
  if (args.backend === 'builtin') return createBuiltinBackend()
  return createOpenAiBackend({
    url: args['openai-url']!,
    model: args.model,
    apiKey: env.OPENAI_API_KEY === '' ? undefined : env.OPENAI_API_KEY,
  })
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2)
  if (answerInfoFlags(argv, { usage })) return
  const args = parseCommandLine(argv, process.env)
  const level = ConfigSchema.shape.logLevel.safeParse(process.env.LOG_LEVEL ?? 'info')
  if (!level.success) throw new ConfigError(`LOG_LEVEL must be ${level.error.issues[0]?.message}, got ${quoteSetting(process.env.LOG_LEVEL ?? '')}.`)
  const logger = createLogger({ level: level.data, base: { service: 'seller' } })
  const services = servicesFrom(args, process.env)
  const seller = await startReferenceSeller({
    rpcUrl: args['rpc-url'],
    deployment: readDeploymentRecord(args.deployment),
    services,
    port: args.port,
    host: args.host,
    serving: { tlsCert: args['tls-cert'] ?? null, tlsKey: args['tls-key'] ?? null, trustProxy: [] },
    backend: backendFrom(args, process.env),
    fromBlock: args['from-block'],
    stateFile: args['state-file'],
    indexerUrl: args['indexer-url']?.replace(/\/+$/, ''),
    cursorFile: args['cursor-file'],
    pollingIntervalMs: args['poll-interval'],
    log: (line) => logger.info(line),
  })
  logger.info(
    { version: packageVersion, services: services.map(({ serviceId }) => serviceId.toString()), url: seller.url },
    `Reference seller for services ${services.map(({ serviceId }) => serviceId).join(', ')} on ${args['rpc-url']}${args['indexer-url'] === undefined ? '' : `, new jobs from ${args['indexer-url']}`}: outputs at ${seller.url}/outputs/<jobId>`,
  )

  let stopping = false
  const onSignal = (): void => {
    if (stopping) process.exit(130)
    stopping = true
    void seller.stop().then(() => {
      logger.info('reference seller stopped')
      process.exit(0)
    })
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

main().catch((error: unknown) => {
  const message = error instanceof BaseError || error instanceof Error ? error.message : String(error)
  console.error(`The reference seller failed to start: ${message}`)
  process.exit(1)
})
