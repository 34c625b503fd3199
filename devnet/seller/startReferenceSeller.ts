import {
  type Account,
  type Chain,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ConfigError } from '../../errors/config.ts'
import { ServiceNotServedError } from '../../errors/seller.ts'
import type { Deployment } from '../../config/deployment.ts'
import { type AnswerJobReturnType, answerJob } from './answerJob.ts'
import type { SellerBackend } from './backends/SellerBackend.ts'
import { createBuiltinBackend } from './backends/createBuiltinBackend.ts'
import { createSellerStore } from './createSellerStore.ts'
import { type JobCreatedRecord, scanJobCreated } from './scanJobCreated.ts'
import type { ServingSettings } from '../../server/serving/readServingOptions.ts'
import { serveOutputs } from './serveOutputs.ts'
import { settleRecordedOutput } from './settleRecordedOutput.ts'

type KeyLike = Hex | LocalAccount

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
  pollingIntervalMs?: number
  /** Widest eth_getLogs range asked for; halved while the node refuses a range as too wide. */
  maxBlockRange?: bigint
  /** One line per answered, skipped or failing job. */
  log?: (line: string) => void
}

export type StartReferenceSellerReturnType = {
  /** Base URL of the output endpoint (`{url}/outputs/{jobId}`). */
  url: string
  /** Adds a key the seller may sign a service's jobs with, e.g. after rotating its signing key. */
  addSigningKey: (parameters: { serviceId: bigint; signingKey: KeyLike }) => void
  stop: () => Promise<void>
}

type SellerWallet = WalletClient<Transport, Chain, Account>

const toAccount = (key: KeyLike): LocalAccount => (typeof key === 'string' ? privateKeyToAccount(key) : key)

/** Node errors that mean "ask for fewer blocks" (wording differs between providers). */
const rangeErrorPattern = /range|too large|too many|limit|exceed/i

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
  pollingIntervalMs = 500,
  maxBlockRange = 5_000n,
  log = () => {},
}: StartReferenceSellerParameters): Promise<StartReferenceSellerReturnType> {
  if (services.length === 0) throw new ConfigError('The reference seller needs at least one service to serve.')
  const transport = http(rpcUrl)
  const publicClient: PublicClient = createPublicClient({ transport, pollingInterval: pollingIntervalMs, cacheTime: 0 })
  const chainId = await publicClient.getChainId()
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })

  const wallets = new Map<string, SellerWallet>()
  const serviceWallets = new Map<bigint, SellerWallet>()
  const signingAccounts = new Map<bigint, LocalAccount[]>()
  for (const { serviceId, sellerKey, signingKey } of services) {
    const seller = toAccount(sellerKey)
    const wallet =
      wallets.get(seller.address) ??
      createWalletClient({ account: seller, chain, transport, pollingInterval: pollingIntervalMs, cacheTime: 0 })
    wallets.set(seller.address, wallet)
    serviceWallets.set(serviceId, wallet)
    const keys = (Array.isArray(signingKey) ? signingKey : [signingKey]) as readonly KeyLike[]
    signingAccounts.set(serviceId, [...(signingAccounts.get(serviceId) ?? []), ...keys.map(toAccount)])
  }
  const serviceIds = [...serviceWallets.keys()]

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
    sellers: [...wallets.values()].map((wallet) => wallet.account.address),
    chainId,
    escrow: deployment.escrow,
    settle: (jobId) => settleRecordedOutput(publicClient, { escrow: deployment.escrow, store, jobId }),
  })

  const pending = new Map<bigint, JobCreatedRecord>()
  const lastErrors = new Map<bigint, string>()
  let lastScanError: string | undefined
  let nextBlock = fromBlock ?? store.resumeBlock() ?? BigInt(deployment.deployBlock)
  let blockRange = maxBlockRange > 0n ? maxBlockRange : 1n
  let stopped = false
  let wake: () => void = () => {}

  const scan = async (): Promise<void> => {
    try {
      const head = await publicClient.getBlockNumber({ cacheTime: 0 })
      while (!stopped && nextBlock <= head) {
        const toBlock = nextBlock + blockRange - 1n < head ? nextBlock + blockRange - 1n : head
        const jobs = await scanJobCreated(publicClient, { escrow: deployment.escrow, serviceIds, fromBlock: nextBlock, toBlock })
        for (const job of jobs) if (!pending.has(job.jobId)) pending.set(job.jobId, job)
        nextBlock = toBlock + 1n
      }
      lastScanError = undefined
    } catch (error) {
      const message = firstLine(error)
      if (rangeErrorPattern.test(message) && blockRange > 1n) blockRange /= 2n
      if (message !== lastScanError) log(`scan from block ${nextBlock} failed, retrying: ${message}`)
      lastScanError = message
    }
  }

  const answerPending = async (): Promise<void> => {
    const queue = [...pending.values()].sort((a, b) => (a.jobId < b.jobId ? -1 : 1))
    for (const job of queue) {
      if (stopped) return
      const walletClient = serviceWallets.get(job.serviceId)
      if (walletClient === undefined) {
        pending.delete(job.jobId)
        continue
      }
      try {
        const result = await answerJob(
          { publicClient, walletClient },
          {
            registry: deployment.registry,
            escrow: deployment.escrow,
            jobId: job.jobId,
            transactionHash: job.transactionHash,
            backend,
            signingAccounts: signingAccounts.get(job.serviceId) ?? [],
            store,
          },
        )
        pending.delete(job.jobId)
        lastErrors.delete(job.jobId)
        const line = describeResult(result)
        // Jobs found already settled, disputed or expired by the chain are the normal back-fill.
        if (line !== undefined) log(`job ${job.jobId} (service ${job.serviceId}) ${line}`)
      } catch (error) {
        // Logged once per distinct failure, not on every poll while it lasts.
        const message = firstLine(error)
        if (lastErrors.get(job.jobId) !== message) log(`job ${job.jobId} not answered yet, will retry: ${message}`)
        lastErrors.set(job.jobId, message)
      }
    }
  }

  const loop = (async (): Promise<void> => {
    while (!stopped) {
      await scan()
      await answerPending()
      // Resume where no job can be missed: the oldest job still queued, else past the scan.
      let resume = nextBlock
      for (const job of pending.values()) if (job.blockNumber < resume) resume = job.blockNumber
      try {
        store.setResumeBlock(resume)
      } catch (error) {
        // Only the restart shortcut is lost: a later tick writes it again.
        log(`saving the scan position failed: ${firstLine(error)}`)
      }
      if (stopped) return
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollingIntervalMs)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  })()

  return {
    url: server.url,
    addSigningKey({ serviceId, signingKey }) {
      const accounts = signingAccounts.get(serviceId)
      if (accounts === undefined) throw new ServiceNotServedError(serviceId)
      accounts.push(toAccount(signingKey))
    },
    async stop() {
      stopped = true
      wake()
      await loop
      await server.close()
    },
  }
}

function describeResult(result: AnswerJobReturnType): string | undefined {
  switch (result.status) {
    case 'settled':
      return result.transactionHash === null ? 'settled' : `settled in ${result.transactionHash}`
    case 'expired':
      return `skipped: it expired at ${result.expiredAt} before it was answered`
    case 'otherSeller':
      return `skipped: it belongs to seller ${result.seller}`
    case 'unreadable':
      return `skipped, left Pending for its buyer to reclaim: ${result.reason}`
    case 'notPending':
      return undefined
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}
