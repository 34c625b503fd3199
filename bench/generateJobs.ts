import { type Address, encodeFunctionData, getAbiItem, type GetLogsReturnType, stringToHex } from 'viem'
import { chatCapabilityHash } from '../devnet/seed/chatCapabilityHash.ts'
import { getBlockNumber, getLogs, increaseTime, mine, readContract, setAutomine } from 'viem/actions'
import { arbiterAbi } from '../chain/abi/arbiter.ts'
import { escrowAbi } from '../chain/abi/escrow.ts'
import { registryAbi } from '../chain/abi/registry.ts'
import type { Deployment } from '../config/deployment.ts'
import { BenchSetupError } from '../errors/bench.ts'
import { benchAccounts } from './benchAccounts.ts'
import { benchServices, type BenchService } from './benchServices.ts'
import { buildSettlement } from './buildSettlement.ts'
import type { BenchClients } from './createBenchClients.ts'
import { createTransactionSender, type BenchTransaction } from './createTransactionSender.ts'
import { deployBatchers, type BenchBatchers } from './deployBatchers.ts'
import {
  attestedOutcomes,
  batchesPerBlock,
  type BenchOutcome,
  callsPerBatch,
  disputedOutcomes,
  disputeBond,
  expiringTimeoutSeconds,
  extraEvents,
  longTimeoutSeconds,
  planBenchJob,
  serviceBond,
} from './planBenchJob.ts'

export type GenerateJobsParameters = {
  deployment: Deployment
  jobs: number
  onProgress?: (message: string) => void
}

export type GenerateJobsReturnType = {
  jobs: number
  services: number
  /** Jobs per planned outcome. */
  outcomes: Record<BenchOutcome, number>
  /** Logs of the registry, the escrow and the arbiter's dispute events up to `headBlock`: what an indexer reads. */
  events: number
  transactions: number
  blocks: number
  headBlock: bigint
  /** A settled job (it has attestation fields and events), for the single-job endpoints. */
  sampleJobId: bigint
  /** The seller with the most jobs (a batcher's address), for `/v1/sellers/:address`. */
  sampleSeller: Address
  /** The buyers' and sellers' batchers, for the lag stage's own jobs. */
  batchers: BenchBatchers
  durationMs: number
}

const gas = {
  register: 1_000_000n,
  stake: 150_000n,
  createJob: 300_000n,
  dispute: 250_000n,
  rotate: 100_000n,
  arbitrate: 400_000n,
  reclaim: 150_000n,
}

const jobCreatedEvent = getAbiItem({ abi: escrowAbi, name: 'JobCreated' })
const prompts = ['Summarise this paragraph.', 'Translate to French: good morning.', 'Write a haiku about rain.', 'List three sorting algorithms.']

type PlannedJob = { index: number; outcome: BenchOutcome; service: BenchService; buyer: Address; jobId?: bigint }

/**
 * Fills a freshly deployed market quickly: 50 services from 5 sellers, then `jobs` jobs from 24
 * buyers with mixed outcomes. Buyers and sellers act through batcher contracts, many calls per
 * transaction (a fraction of the transactions, about half the time), with automine off.
 * Settles with real attestations, disputes some, and has anyone arbitrate as on the reference: a
 * dispute arbitrated while the attestation verifies fails; then every service with a job to slash
 * rotates its signing key, and arbitrating those jobs slashes the service's bond (in full for the
 * first, for zero after). Expires some after moving the clock. Leaves automine on again.
 */
export async function generateJobs(
  clients: BenchClients,
  { deployment, jobs, onProgress = () => {} }: GenerateJobsParameters,
): Promise<GenerateJobsReturnType> {
  const startedAt = performance.now()
  const { registry, escrow, arbiter } = deployment
  const sender = createTransactionSender(clients)
  let transactions = 0
  let blocks = 0
  const phase = async <item>(
    name: string,
    items: readonly item[],
    build: (item: item) => BenchTransaction | Promise<BenchTransaction>,
    perBlock = batchesPerBlock,
  ): Promise<void> => {
    const phaseStart = performance.now()
    const sent = await sender.sendInBlocks({ items, build, perBlock })
    transactions += sent.transactions
    blocks += sent.blocks
    onProgress(`${name}: ${sent.transactions} transactions in ${sent.blocks} blocks, ${((performance.now() - phaseStart) / 1000).toFixed(1)} s`)
  }

  const firstServiceId = await readContract(clients.public, { address: registry, abi: registryAbi, functionName: 'nextServiceId' })
  if (firstServiceId !== 1n) throw new BenchSetupError('The bench needs a fresh deployment: services already exist.')
  await setAutomine(clients.test, false)
  const batchers = await deployBatchers(sender, { owners: [...benchAccounts.sellers, ...benchAccounts.buyers] })

  // One registration a block, so service ids follow the plan whatever order the node picks.
  await phase(
    'register services',
    benchServices,
    (service) =>
      batchers.batch(service.seller, {
        target: registry,
        calls: [
          {
            gas: gas.register,
            data: encodeFunctionData({
              abi: registryAbi,
              functionName: 'registerService',
              args: [
                chatCapabilityHash(service.modelId),
                service.modelId,
                batchers.of(service.seller),
                service.signer.address,
                service.providerIdentity,
                'centralized',
                service.index % 3 !== 0,
                service.pricePerCall,
                16_384n,
                stringToHex(`ipfs://tee-market-bench/agents/${service.index}.json`),
              ],
            }),
          },
        ],
      }),
    1,
  )
  await phase('stake service bonds', inBatches(benchServices, ({ seller }) => seller, callsPerBatch.stake), ({ owner, items }) =>
    batchers.batch(owner, {
      target: arbiter,
      calls: items.map((service) => ({
        gas: gas.stake,
        value: serviceBond,
        data: encodeFunctionData({ abi: arbiterAbi, functionName: 'stakeBond', args: [BigInt(service.index + 1)] }),
      })),
    }),
  )

  const buyers = benchAccounts.buyers
  const planned: PlannedJob[] = Array.from({ length: jobs }, (_, index) => ({ index, ...planBenchJob(index) }))
  const firstJobBlock = (await getBlockNumber(clients.public)) + 1n
  await phase('create jobs', inBatches(planned, ({ buyer }) => buyer, callsPerBatch.createJob), ({ owner, items }) =>
    batchers.batch(owner, {
      target: escrow,
      calls: items.map((job) => ({
        gas: gas.createJob,
        value: job.service.pricePerCall,
        data: encodeFunctionData({
          abi: escrowAbi,
          functionName: 'createJob',
          args: [
            BigInt(job.service.index + 1),
            stringToHex(`${prompts[job.index % prompts.length]} (bench job ${job.index})`),
            job.outcome === 'expired' ? expiringTimeoutSeconds : longTimeoutSeconds,
          ],
        }),
      })),
    }),
  )
  await assignJobIds(clients, { escrow, planned, fromBlock: firstJobBlock, buyers: buyers.map(batchers.of) })

  const withOutcome = (...outcomes: BenchOutcome[]): PlannedJob[] => planned.filter((job) => outcomes.includes(job.outcome))
  const jobIdOf = (job: PlannedJob): bigint => job.jobId as bigint
  const settledOnes = withOutcome(...attestedOutcomes)
  await phase('settle jobs', inBatches(settledOnes, ({ service }) => service.seller, callsPerBatch.settle), async ({ owner, items }) =>
    batchers.batch(owner, {
      target: escrow,
      calls: await Promise.all(items.map((job) => buildSettlement({ jobId: jobIdOf(job), service: job.service }))),
    }),
  )
  await phase('dispute jobs', inBatches(withOutcome(...disputedOutcomes), ({ buyer }) => buyer, callsPerBatch.dispute), ({ owner, items }) =>
    batchers.batch(owner, {
      target: escrow,
      calls: items.map((job) => ({
        gas: gas.dispute,
        value: disputeBond,
        data: encodeFunctionData({ abi: escrowAbi, functionName: 'dispute', args: [jobIdOf(job)] }),
      })),
    }),
  )
  const arbitrate = (name: string, outcome: BenchOutcome): Promise<void> =>
    phase(name, inBatches(withOutcome(outcome), ({ buyer }) => buyer, callsPerBatch.arbitrate), ({ owner, items }) =>
      batchers.batch(owner, {
        target: arbiter,
        calls: items.map((job) => ({
          gas: gas.arbitrate,
          data: encodeFunctionData({ abi: arbiterAbi, functionName: 'arbitrate', args: [jobIdOf(job)] }),
        })),
      }),
    )
  await arbitrate('arbitrate disputes that fail', 'disputeFailed')
  const rotated = benchServices.filter((service) => withOutcome('slashed').some((job) => job.service === service))
  await phase('rotate signing keys', inBatches(rotated, ({ seller }) => seller, callsPerBatch.rotate), ({ owner, items }) =>
    batchers.batch(owner, {
      target: registry,
      calls: items.map((service) => ({
        gas: gas.rotate,
        data: encodeFunctionData({
          abi: registryAbi,
          functionName: 'rotateSigningAddress',
          args: [BigInt(service.index + 1), service.rotatedSigner.address],
        }),
      })),
    }),
  )
  await arbitrate('arbitrate disputes that slash', 'slashed')
  await increaseTime(clients.test, { seconds: Number(expiringTimeoutSeconds) * 2 })
  await mine(clients.test, { blocks: 1 })
  await phase('reclaim expired jobs', inBatches(withOutcome('expired'), ({ buyer }) => buyer, callsPerBatch.reclaim), ({ owner, items }) =>
    batchers.batch(owner, {
      target: escrow,
      calls: items.map((job) => ({
        gas: gas.reclaim,
        data: encodeFunctionData({ abi: escrowAbi, functionName: 'reclaimExpired', args: [jobIdOf(job)] }),
      })),
    }),
  )
  await setAutomine(clients.test, true)

  const registryLogs = await getLogs(clients.public, { address: registry, fromBlock: BigInt(deployment.deployBlock) })
  const outcomes: Record<BenchOutcome, number> = { pending: 0, settled: 0, expired: 0, disputed: 0, slashed: 0, disputeFailed: 0 }
  let escrowEvents = 0
  for (const job of planned) {
    outcomes[job.outcome] += 1
    escrowEvents += 1 + extraEvents[job.outcome]
  }
  const jobsPerSeller = new Map<Address, number>()
  for (const job of planned) jobsPerSeller.set(job.service.seller, (jobsPerSeller.get(job.service.seller) ?? 0) + 1)
  const busiestSeller = [...jobsPerSeller].sort((a, b) => b[1] - a[1])[0]?.[0] ?? (benchAccounts.sellers[0] as Address)
  const settled = withOutcome('settled')
  const sample = settled[Math.floor(settled.length / 2)]

  return {
    jobs,
    services: benchServices.length,
    outcomes,
    events: registryLogs.length + escrowEvents,
    transactions,
    blocks,
    headBlock: await getBlockNumber(clients.public),
    sampleJobId: sample === undefined ? 1n : jobIdOf(sample),
    sampleSeller: batchers.of(busiestSeller),
    batchers,
    durationMs: performance.now() - startedAt,
  }
}

type Batch<item> = { owner: Address; items: item[] }

/** Groups items by owner, in order, into batches of at most `size`; batches of different owners interleave. */
function inBatches<item>(items: readonly item[], ownerOf: (item: item) => Address, size: number): Batch<item>[] {
  const open = new Map<Address, Batch<item>>()
  const batches: Batch<item>[] = []
  for (const item of items) {
    const owner = ownerOf(item)
    let batch = open.get(owner)
    if (batch === undefined || batch.items.length === size) {
      batch = { owner, items: [] }
      open.set(owner, batch)
      batches.push(batch)
    }
    batch.items.push(item)
  }
  return batches
}

type JobCreatedLog = GetLogsReturnType<typeof jobCreatedEvent, [typeof jobCreatedEvent], true>[number]
type AssignJobIdsParameters = { escrow: Address; planned: PlannedJob[]; fromBlock: bigint; buyers: readonly Address[] }

/** Blocks per `eth_getLogs` reading back JobCreated logs: ~1,500 logs, far under viem's 10 MB answer limit. */
const logPageBlocks = 5n

/**
 * Learns each planned job's id from the JobCreated logs. The node may order different buyers'
 * transactions in a block any way it likes, but one buyer's go in nonce order, so a buyer's k-th
 * job by id is the k-th it sent: planned job `k * buyers + b`.
 */
async function assignJobIds(clients: BenchClients, { escrow, planned, fromBlock, buyers }: AssignJobIdsParameters): Promise<void> {
  const toBlock = await getBlockNumber(clients.public)
  // One page at a time: pages issued together would travel as one batch, and one answer.
  const logs: JobCreatedLog[] = []
  for (let from = fromBlock; from <= toBlock; from += logPageBlocks) {
    const to = from + logPageBlocks - 1n < toBlock ? from + logPageBlocks - 1n : toBlock
    logs.push(...(await getLogs(clients.public, { address: escrow, event: jobCreatedEvent, fromBlock: from, toBlock: to, strict: true })))
  }
  if (logs.length !== planned.length) {
    throw new BenchSetupError(`Expected ${planned.length} JobCreated logs, found ${logs.length}: some createJob transactions failed.`)
  }
  const seen = new Map<Address, number>()
  const buyerIndex = new Map(buyers.map((buyer, index) => [buyer.toLowerCase(), index]))
  for (const log of logs.sort((a, b) => (a.args.jobId < b.args.jobId ? -1 : 1))) {
    const buyer = buyerIndex.get(log.args.buyer.toLowerCase())
    if (buyer === undefined) throw new BenchSetupError(`Job "${log.args.jobId}" was created by an unexpected buyer ${log.args.buyer}.`)
    const address = buyers[buyer] as Address
    const k = seen.get(address) ?? 0
    seen.set(address, k + 1)
    const job = planned[k * buyers.length + buyer]
    if (job === undefined || BigInt(job.service.index + 1) !== log.args.serviceId) {
      throw new BenchSetupError(`Job "${log.args.jobId}" does not match the plan (service ${log.args.serviceId}).`)
    }
    job.jobId = log.args.jobId
  }
}
