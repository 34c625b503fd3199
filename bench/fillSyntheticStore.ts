import { type Address, encodePacked, type Hex, keccak256, zeroHash } from 'viem'
import { chatCapabilityHash } from '../devnet/seed/chatCapabilityHash.ts'
import type { JobStruct } from '../chain/mappers/toJob.ts'
import { toJob } from '../chain/mappers/toJob.ts'
import { toService } from '../chain/mappers/toService.ts'
import { jobStateNames } from '../contract/job.ts'
import type { StoreWriter } from '../server/store/StoreWriter.ts'
import { toHistoryEntry, type JobLog } from '../server/indexer/toHistoryEntry.ts'
import { benchAccounts } from './benchAccounts.ts'
import { benchServices } from './benchServices.ts'
import { buildBenchAttestationText } from './buildSettlement.ts'
import {
  attestedOutcomes,
  type BenchOutcome,
  batchesPerBlock,
  callsPerBatch,
  disputeBond,
  disputedOutcomes,
  expiringTimeoutSeconds,
  longTimeoutSeconds,
  outcomeShare,
  outcomeStates,
  planBenchJob,
  serviceBond,
} from './planBenchJob.ts'

/** A seller and a buyer of the synthetic market, for the filters. */
export const syntheticSeller = benchAccounts.sellers[0] as Address
export const syntheticBuyer = benchAccounts.buyers[0] as Address

export type FillSyntheticStoreParameters = {
  /** The jobs to put now, by id (from 1). */
  from: number
  to: number
  /** The whole market's size: where each later phase's blocks begin (default `to`). */
  jobs?: number
}

/** The escrow's fee, 500 basis points of the amount. */
const protocolFeeOf = (amount: bigint): bigint => (amount * 500n) / 10_000n
/** Blocks before the first job's: deployment, batchers, 50 service registrations and their bonds. */
const firstJobBlock = 100
const firstBlockTime = 1_778_220_000
/** One block a second, as the bench's node mines them. */
const timeOf = (block: number): bigint => BigInt(firstBlockTime + block)
const jobsPerBlock = (calls: number): number => calls * batchesPerBlock

/**
 * Jobs `from`..`to` of the bench's chain market (generateJobs's plan: 50 services of 5 sellers,
 * 24 buyers, its mix of outcomes and prices) put into a store as the indexer would put them read
 * from that chain: each record made by the indexer's own mapper (toJob, so the attestation text
 * is parsed into its fields) from the struct the escrow would return, and each log through
 * toHistoryEntry, in the order of the chain. The chain is laid out as generateJobs builds it:
 * each phase in its own run of blocks, 45 jobs created a transaction and 24 settled, two
 * transactions a block, one block a second; so transaction hashes, block numbers and times are
 * shared by as many jobs as there, and the hashes, commitments and signatures a job owns are its
 * own. What the benches fill a store with where a chain of that size would not fit the machine
 * (a hardhat devnet holds about 35 KB per job). The first call (`from` 1) also puts the services.
 */
export function fillSyntheticStore(
  store: Pick<StoreWriter, 'putService' | 'putJob' | 'addJobEvent'>,
  { from, to, jobs = to }: FillSyntheticStoreParameters,
): void {
  if (from === 1) putServices(store)
  const blocks = phaseBlocks(jobs)
  for (let id = from; id <= to; id += 1) putJob(store, id, blocks)
}

/** The first block of each phase of a `jobs`-job market, in generateJobs's order. */
function phaseBlocks(jobs: number): Record<'create' | 'settle' | 'dispute' | 'fail' | 'slash' | 'reclaim', number> {
  const blocksFor = (calls: number, ...outcomes: BenchOutcome[]): number => Math.ceil((jobs * outcomeShare(...outcomes)) / jobsPerBlock(calls)) + 1
  const create = firstJobBlock
  const settle = create + Math.ceil(jobs / jobsPerBlock(callsPerBatch.createJob)) + 1
  const dispute = settle + blocksFor(callsPerBatch.settle, ...attestedOutcomes)
  const fail = dispute + blocksFor(callsPerBatch.dispute, ...disputedOutcomes)
  // The services with a job to slash rotate their signing keys in between.
  const slash = fail + blocksFor(callsPerBatch.arbitrate, 'disputeFailed') + Math.ceil(benchServices.length / jobsPerBlock(callsPerBatch.rotate))
  const reclaim = slash + blocksFor(callsPerBatch.arbitrate, 'slashed') + 1
  return { create, settle, dispute, fail, slash, reclaim }
}

function putServices(store: Pick<StoreWriter, 'putService'>): void {
  for (const service of benchServices) {
    const serviceId = BigInt(service.index + 1)
    const block = 10 + service.index
    store.putService({
      serviceId,
      block: BigInt(block),
      registeredBlock: BigInt(block),
      service: toService(serviceId, {
        inftTokenId: serviceId,
        seller: service.seller,
        capabilityHash: chatCapabilityHash(service.modelId),
        modelId: service.modelId,
        modelCommitment: keccak256(encodePacked(['string', 'address'], [service.modelId, service.seller])),
        providerAddress: service.seller,
        signingAddress: service.signer.address,
        providerIdentity: service.providerIdentity,
        providerType: 'centralized',
        targetSeparated: service.index % 3 !== 0,
        pricePerCall: service.pricePerCall,
        maxInputBytes: 16_384n,
        registeredAt: timeOf(block),
        active: true,
      }),
    })
  }
}

/** Where a phase put a job's log: its transaction (numbered within the phase), block and log index. */
type Placed = { transaction: number; block: number; logIndex: number }

/**
 * The `rank`-th call of a phase (from 0), `calls` to a transaction and two transactions a block,
 * each call leaving `logs` logs.
 */
function place(phaseBlock: number, rank: number, calls: number, logs = 1): Placed {
  const perBlock = jobsPerBlock(calls)
  return { transaction: Math.floor(rank / calls), block: phaseBlock + Math.floor(rank / perBlock), logIndex: (rank % perBlock) * logs }
}

function putJob(store: Pick<StoreWriter, 'putJob' | 'addJobEvent'>, id: number, blocks: ReturnType<typeof phaseBlocks>): void {
  // Job ids follow the order the node ran the createJob transactions in: 45 calls of one buyer
  // each, the buyers' batches taking turns (generateJobs's inBatches), so the id's place in its
  // transaction and the transaction's place in the turn give the plan's index.
  const created = place(blocks.create, id - 1, callsPerBatch.createJob)
  const buyers = benchAccounts.buyers.length
  const turn = Math.floor(created.transaction / buyers)
  const index = (turn * callsPerBatch.createJob + ((id - 1) % callsPerBatch.createJob)) * buyers + (created.transaction % buyers)
  const { outcome, service, buyer } = planBenchJob(index)
  // The rank of this job among those of its phase, in the plan's order (about; the phases run in it).
  const rankAmong = (...outcomes: BenchOutcome[]): number => Math.floor(index * outcomeShare(...outcomes))
  const jobId = BigInt(id)
  const amount = service.pricePerCall
  const protocolFee = protocolFeeOf(amount)
  const attested = attestedOutcomes.includes(outcome)
  const createdAt = timeOf(created.block)
  const own = (salt: number, words = 8): Hex => hexOf(id * 128 + salt * 16, words)
  const outputRootHash = attested ? own(1) : zeroHash
  const struct: JobStruct = {
    serviceId: BigInt(service.index + 1),
    buyer,
    seller: service.seller,
    amount,
    protocolFee,
    createdAt,
    timeout: createdAt + (outcome === 'expired' ? expiringTimeoutSeconds : longTimeoutSeconds),
    state: jobStateNames.indexOf(outcomeStates[outcome]),
    inputCommitment: own(0),
    outputRootHash,
    chatId: attested ? own(2) : zeroHash,
    attestationText: attested ? buildBenchAttestationText({ outputRootHash, usageHash: own(3), service }) : '0x',
    // r ‖ s ‖ v, v 27.
    attestationSignature: attested ? `${own(4, 16)}1b` : '0x',
  }
  store.putJob({ jobId, job: toJob(jobId, struct) })

  const add = (phase: number, at: Placed, eventLog: Pick<JobLog, 'eventName' | 'args'>, offset = 0): void => {
    const block = BigInt(at.block)
    const log = { ...eventLog, blockNumber: block, transactionHash: transactionHashOf(phase, at.transaction), logIndex: at.logIndex + offset } as JobLog
    store.addJobEvent({ jobId, ...toHistoryEntry({ log, timestamp: timeOf(at.block) }) })
  }
  add(0, created, {
    eventName: 'JobCreated',
    args: { jobId, serviceId: struct.serviceId, buyer, inputCommitment: struct.inputCommitment, amount, timeout: struct.timeout },
  })
  if (outcome === 'expired') {
    add(5, place(blocks.reclaim, rankAmong('expired'), callsPerBatch.reclaim), { eventName: 'JobExpired', args: { jobId, buyer, refunded: amount } })
  }
  if (!attested) return
  const settled = place(blocks.settle, rankAmong(...attestedOutcomes), callsPerBatch.settle, 2)
  add(1, settled, { eventName: 'JobAttested', args: { jobId, outputRootHash, chatId: struct.chatId, recoveredSigner: service.signer.address } })
  add(1, settled, { eventName: 'JobSettled', args: { jobId, seller: service.seller, paidToSeller: amount - protocolFee, protocolFee } }, 1)
  if (outcome === 'settled') return
  const disputed = place(blocks.dispute, rankAmong(...disputedOutcomes), callsPerBatch.dispute, 2)
  add(2, disputed, { eventName: 'JobDisputed', args: { jobId, disputer: buyer } })
  add(2, disputed, { eventName: 'DisputeOpened', args: { jobId, disputer: buyer, bond: disputeBond } }, 1)
  if (outcome === 'disputeFailed') {
    const toTreasury = disputeBond / 10n
    const failed = place(blocks.fail, rankAmong('disputeFailed'), callsPerBatch.arbitrate)
    add(3, failed, { eventName: 'DisputeFailed', args: { jobId, disputer: buyer, toSeller: disputeBond - toTreasury, toTreasury } })
  }
  if (outcome === 'slashed') {
    // The first slash of a service takes its whole bond, and leaves none for the next ones.
    const rank = rankAmong('slashed')
    const bond = rank < benchServices.length ? serviceBond : 0n
    const split = { toDisputer: (bond * 7n) / 10n, toTreasury: (bond * 2n) / 10n, burned: bond - (bond * 7n) / 10n - (bond * 2n) / 10n }
    const slashed = place(blocks.slash, rank, callsPerBatch.arbitrate, 2)
    add(4, slashed, { eventName: 'JobSlashed', args: { jobId, slashedSeller: service.seller, bondAmount: bond, ...split } })
    add(4, slashed, { eventName: 'Slashed', args: { jobId, disputer: buyer, sellerBondSlashed: bond, ...split } }, 1)
  }
}

/** A well-spread hash of a number (two rounds of a multiply-xorshift, a bijection on 32 bits). */
function mix(value: number): number {
  let x = value | 0
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b)
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b)
  return (x ^ (x >>> 16)) >>> 0
}

/**
 * `words` × 4 bytes of hex that look random, each word the mix of one number from `seed` on (so
 * distinct seeds a word apart give distinct hashes), built with a join: one flat string, as a JSON
 * answer's would be (a chain of concatenations would be a rope V8 keeps node by node).
 */
function hexOf(seed: number, words: number): Hex {
  const parts = ['0x']
  for (let word = 0; word < words; word += 1) parts.push(mix(seed + word).toString(16).padStart(8, '0'))
  return parts.join('') as Hex
}

/** The hash of a phase's numbered transaction (seeds apart from the jobs' own), one string per log as an RPC answer's. */
function transactionHashOf(phase: number, transaction: number): Hex {
  return hexOf(2 ** 30 + (phase * 2 ** 20 + transaction) * 8, 8)
}
