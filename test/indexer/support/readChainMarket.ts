import type { Client } from 'viem'
import { getBlock, getContractEvents, readContract } from 'viem/actions'
import { arbiterAbi } from '../../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../../chain/abi/escrow.ts'
import { registryAbi } from '../../../chain/abi/registry.ts'
import type { JobDispute } from '../../../contract/disputeEvent.ts'
import type { JobDetail } from '../../../contract/job.ts'
import type { Deployment } from '../../../config/deployment.ts'
import { decodeJob, decodeService } from './decodeChainRecords.ts'
import type { MarketSnapshot } from './snapshotStore.ts'

/**
 * The market as the chain has it, derived independently of the indexer: every record read
 * directly (`getService`/`getJob` for each id) and decoded by this oracle's own lines
 * (decodeChainRecords), never the indexer's mappers; every job's history from one full-range log
 * query per contract (the escrow's events, and the arbiter's about disputes); every dispute's
 * events with their arguments as the logs decode them; and the counters recomputed from those logs.
 */
export async function readChainMarket(
  client: Client,
  { registry, escrow, arbiter, deployBlock }: Pick<Deployment, 'registry' | 'escrow' | 'arbiter' | 'deployBlock'>,
): Promise<MarketSnapshot> {
  const fromBlock = BigInt(deployBlock)
  const [nextServiceId, nextJobId, escrowLogs, arbiterLogs] = await Promise.all([
    readContract(client, { address: registry, abi: registryAbi, functionName: 'nextServiceId' }),
    readContract(client, { address: escrow, abi: escrowAbi, functionName: 'nextJobId' }),
    getContractEvents(client, { address: escrow, abi: escrowAbi, fromBlock, toBlock: 'latest', strict: true }),
    getContractEvents(client, { address: arbiter, abi: arbiterAbi, fromBlock, toBlock: 'latest', strict: true }),
  ])
  const logs = [...escrowLogs, ...arbiterLogs].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  )
  const ids = (next: bigint) => Array.from({ length: Number(next - 1n) }, (_, index) => BigInt(index + 1))
  const blockNumbers = [...new Set(logs.map((log) => log.blockNumber))]
  const [services, jobs, headers] = await Promise.all([
    // One plain call per record, not the indexer's batched readers: this is what they are checked against.
    Promise.all(
      ids(nextServiceId).map(async (serviceId) =>
        decodeService(
          serviceId,
          await readContract(client, { address: registry, abi: registryAbi, functionName: 'getService', args: [serviceId] }),
        ),
      ),
    ),
    Promise.all(
      ids(nextJobId).map(async (jobId) =>
        decodeJob(jobId, await readContract(client, { address: escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })),
      ),
    ),
    Promise.all(blockNumbers.map((blockNumber) => getBlock(client, { blockNumber }))),
  ])
  const timestamps = new Map(headers.map((header) => [header.number, header.timestamp]))

  const details: JobDetail[] = jobs.map((job) => ({ ...job, events: [] }))
  // Listed here, not imported: the oracle names the events of a job's history (the interface
  // document's, and the arbiter's about its dispute) and those that carry a dispute's facts itself.
  const historyEventNames: string[] = [
    'JobCreated', 'JobAttested', 'JobSettled', 'JobExpired', 'JobDisputed', 'JobSlashed',
    'DisputeOpened', 'DisputeFailed', 'Slashed',
  ]
  const disputeEventNames: string[] = ['JobDisputed', 'DisputeOpened', 'DisputeFailed', 'JobSlashed', 'Slashed']
  const disputes: Record<string, JobDispute> = {}
  const outcomes = { JobSettled: new Set<bigint>(), JobExpired: new Set<bigint>(), JobSlashed: new Set<bigint>() }
  let totalSettledWei = 0n
  for (const log of logs) {
    if (!historyEventNames.includes(log.eventName)) continue
    const jobId = (log.args as { jobId: bigint }).jobId
    details[Number(jobId) - 1]?.events.push({
      event: log.eventName as JobDetail['events'][number]['event'],
      blockNumber: String(log.blockNumber),
      transactionHash: log.transactionHash,
      logIndex: log.logIndex,
      timestamp: String(timestamps.get(log.blockNumber)),
    })
    if (disputeEventNames.includes(log.eventName)) {
      const { jobId: _jobId, ...args } = log.args as Record<string, unknown>
      const dispute = (disputes[String(jobId)] ??= { jobId: String(jobId), count: 0, events: [] })
      dispute.events.push({
        event: log.eventName,
        blockNumber: String(log.blockNumber),
        transactionHash: log.transactionHash,
        logIndex: log.logIndex,
        timestamp: String(timestamps.get(log.blockNumber)),
        ...Object.fromEntries(Object.entries(args).map(([name, value]) => [name, String(value)])),
      } as JobDispute['events'][number])
      dispute.count += 1
    }
    if (log.eventName === 'JobSettled' || log.eventName === 'JobExpired' || log.eventName === 'JobSlashed') {
      outcomes[log.eventName].add(jobId)
    }
    if (log.eventName === 'JobSettled') totalSettledWei += log.args.paidToSeller + log.args.protocolFee
  }

  return {
    services,
    jobs: details,
    disputes: Object.values(disputes).sort((a, b) => Number(a.jobId) - Number(b.jobId)),
    stats: {
      services: services.length,
      jobs: {
        total: jobs.length,
        settled: outcomes.JobSettled.size,
        expired: outcomes.JobExpired.size,
        slashed: outcomes.JobSlashed.size,
      },
      totalSettledWei: totalSettledWei.toString(),
    },
  }
}
