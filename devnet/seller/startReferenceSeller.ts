import { type PublicClient, createPublicClient, defineChain } from 'viem'
import { httpWithDeadline } from '../../chain/rpc/httpWithDeadline.ts'
import type { Deployment } from '../../config/deployment.ts'
import { ConfigError } from '../../errors/config.ts'
import { ServiceNotServedError } from '../../errors/seller.ts'
import type { ServingSettings } from '../../platform/serving/readServingOptions.ts'
import { answerPendingJobs } from './answerPendingJobs.ts'
import type { SellerBackend } from './backends/SellerBackend.ts'
import { createBuiltinBackend } from './backends/createBuiltinBackend.ts'
import { createChainJobSource } from './createChainJobSource.ts'
import { createFeedJobSource } from './createFeedJobSource.ts'
import { createSellerStore } from './createSellerStore.ts'
import { type KeyLike, createSellerWallets, toAccount } from './createSellerWallets.ts'
import { describeFirstLine } from './describeFirstLine.ts'
import type { JobSource } from './JobSource.ts'
import { serveOutputs } from './serveOutputs.ts'
import type { Attester } from '../tee/createAttester.ts'
import { settleRecordedOutput } from './settleRecordedOutput.ts'

export type ReferenceSellerService = {
  serviceId: bigint
  /** The wallet registered as the service's seller: it submits the attestations. */
  sellerKey: KeyLike
  /**
   * The service's signing key, or several (before and after a rotation): each job is signed
   * with the one whose address is the service's signingAddress on chain at that moment.
   */
  signingKey: KeyLike | readonly KeyLike[]
}

export type StartReferenceSellerParameters = {
  rpcUrl: string
  deployment: Pick<Deployment, 'registry' | 'escrow' | 'deployBlock'>
  services: readonly ReferenceSellerService[]
  /** Output endpoint port; 0 picks a free one. */
  port: number
  host?: string
  /** The output endpoint's certificate and trusted proxies (see readServingOptions); plain HTTP unless given. */
  serving?: ServingSettings | undefined
  backend?: SellerBackend
  /**
   * First block to scan for JobCreated. Default: where the state file says the last run stopped,
   * else the deployment block, so a restarted seller answers every job still Pending.
   */
  fromBlock?: bigint
  /** JSON file keeping outputs and scan progress across restarts; memory only when absent. */
  stateFile?: string
  /**
   * A REST indexer whose live feed (`GET /v1/events`) tells of new jobs, instead of scanning
   * JobCreated on the node; the jobs are still read and answered through `rpcUrl`.
   */
  indexerUrl?: string | undefined
  /** With `indexerUrl`: the file keeping the feed's cursor across restarts (default `<stateFile>.cursor`, else memory only). */
  cursorFile?: string | undefined
  /** With `indexerUrl`: deadline of each request to the indexer, the stream's until its headers (default 10,000 ms). */
  indexerTimeoutMs?: number
  pollingIntervalMs?: number
  /** Deadline of each call to the node, headers and body (default 10,000 ms). */
  rpcTimeoutMs?: number
  /** Widest eth_getLogs range asked for; halved while the node refuses a range as too wide. */
  maxBlockRange?: bigint
  /** One line per answered, skipped or failing job. */
  log?: (line: string) => void
  /** On the devnet: attestation reports made with its TEE root, served beside the outputs. */
  attester?: Attester | undefined
}

export type StartReferenceSellerReturnType = {
  /** Base URL of the output endpoint (`{url}/outputs/{jobId}`). */
  url: string
  /**
   * Settles once the first scan and its answers are done (whether each answer succeeded or not):
   * `npm start` waits for it, so the jobs Pending at start are answered before it sets the clock.
   */
  firstPass: Promise<void>
  /** Adds a key the seller may sign a service's jobs with, e.g. after rotating its signing key. */
  addSigningKey: (parameters: { serviceId: bigint; signingKey: KeyLike }) => void
  stop: () => Promise<void>
}

/**
 * Runs the devnet's reference seller: follows JobCreated for its services, answers each Pending
 * job with the backend, submits a signed attestation (which settles the job) and serves the
 * output to the job's buyer over HTTP. Every node or backend error leaves the job queued for the
 * next poll; a job leaves the queue only once settled, expired or no longer Pending.
 */
export async function startReferenceSeller({
  rpcUrl,
  deployment,
  services,
  port,
  host = '127.0.0.1',
  serving,
  backend = createBuiltinBackend(),
  fromBlock,
  stateFile,
  indexerUrl,
  cursorFile = stateFile === undefined ? undefined : `${stateFile}.cursor`,
  indexerTimeoutMs = 10_000,
  pollingIntervalMs = 500,
  rpcTimeoutMs = 10_000,
  maxBlockRange = 5_000n,
  log = () => {},
  attester,
}: StartReferenceSellerParameters): Promise<StartReferenceSellerReturnType> {
  if (services.length === 0) throw new ConfigError('The reference seller needs at least one service to serve.')
  // A node that stalls an answer, or refuses a call with a non-2xx status, fails the call in time.
  const transport = httpWithDeadline(rpcUrl, { timeoutMs: rpcTimeoutMs })
  const publicClient: PublicClient = createPublicClient({ transport, pollingInterval: pollingIntervalMs, cacheTime: 0 })
  const chainId = await publicClient.getChainId()
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const wallets = createSellerWallets(services, { chain, transport, pollingIntervalMs })

  const chainKey =
    stateFile === undefined
      ? ''
      : `${chainId}:${deployment.escrow}:${(await publicClient.getBlock({ blockNumber: BigInt(deployment.deployBlock) })).hash}`
  const store = createSellerStore({ file: stateFile, chainKey })
  const server = await serveOutputs(store, {
    host,
    port,
    serving,
    log,
    attester,
    sellers: wallets.sellers,
    chainId,
    escrow: deployment.escrow,
    settle: (jobId) => settleRecordedOutput(publicClient, { escrow: deployment.escrow, store, jobId }),
  })

  let stopped = false
  const isStopped = (): boolean => stopped
  // A wake-up that comes while a pass runs is kept, so the next pass starts at once.
  let woken = false
  let endSleep: () => void = () => {}
  const wake = (): void => {
    woken = true
    endSleep()
  }
  const serviceIds = [...wallets.serviceWallets.keys()]
  const source: JobSource =
    indexerUrl === undefined
      ? createChainJobSource(publicClient, {
          escrow: deployment.escrow,
          serviceIds,
          fromBlock: fromBlock ?? store.resumeBlock() ?? BigInt(deployment.deployBlock),
          maxBlockRange,
          isStopped,
          log,
          store,
        })
      : createFeedJobSource({ indexerUrl, chainId, sellers: wallets.sellers, serviceIds, cursorFile, timeoutMs: indexerTimeoutMs, wake, log })
  const lastErrors = new Map<bigint, string>()
  let passed: () => void = () => {}
  const firstPass = new Promise<void>((resolve) => (passed = resolve))

  const loop = (async (): Promise<void> => {
    while (!stopped) {
      await source.refresh()
      await answerPendingJobs(publicClient, { ...wallets, deployment, backend, store, pending: source.pending, lastErrors, isStopped, log })
      passed()
      try {
        source.save()
      } catch (error) {
        // Only the restart shortcut is lost: a later tick writes it again.
        log(`saving the ${indexerUrl === undefined ? 'scan position' : "feed's cursor"} failed: ${describeFirstLine(error)}`)
      }
      if (stopped) return
      if (!woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollingIntervalMs)
          endSleep = () => {
            clearTimeout(timer)
            resolve()
          }
        })
      }
      woken = false
    }
  })()

  return {
    url: server.url,
    firstPass: Promise.race([firstPass, loop]),
    addSigningKey({ serviceId, signingKey }) {
      const accounts = wallets.signingAccounts.get(serviceId)
      if (accounts === undefined) throw new ServiceNotServedError(serviceId)
      accounts.push(toAccount(signingKey))
    },
    async stop() {
      stopped = true
      wake()
      await loop
      await source.stop()
      await server.close()
    },
  }
}
