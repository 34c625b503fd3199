import { type Address, encodeFunctionData, stringToHex, toHex } from 'viem'
import { getTransactionReceipt, setAutomine } from 'viem/actions'
import { escrowAbi } from '../chain/abi/escrow.ts'
import type { Deployment } from '../config/deployment.ts'
import { BenchSetupError } from '../errors/bench.ts'
import { benchAccounts } from './benchAccounts.ts'
import type { BenchService } from './benchServices.ts'
import { buildSettlement } from './buildSettlement.ts'
import type { BenchClients } from './createBenchClients.ts'
import { createTransactionSender } from './createTransactionSender.ts'
import type { BenchBatchers } from './deployBatchers.ts'
import { percentile } from './percentile.ts'
import { readUsableServices } from './readUsableServices.ts'

export type LagObserver = {
  /** e.g. "3 s poll". */
  label: string
  pollIntervalMs: number
  /** The p95 target for this setting (poll interval + 0.5 s at the default poll, 0.5 s at the fastest). */
  targetP95Ms: number
  restUrl: string
}

export type MeasureLagParameters = {
  deployment: Deployment
  /** The generator's: jobs are created and settled by the same batcher contracts. */
  batchers: BenchBatchers
  observers: readonly LagObserver[]
  /** Jobs settled, one every `paceMs`. */
  jobs: number
  paceMs: number
  /** How often the bench asks `GET /v1/jobs/:id` about the oldest job not yet seen settled. */
  checkEveryMs?: number
}

export type LagResult = {
  label: string
  pollIntervalMs: number
  targetP95Ms: number
  samples: number
  p50Ms: number
  p95Ms: number
  maxMs: number
  /** Jobs never seen settled before the bench gave up on them. */
  missed: number
}

export type MeasureLagReturnType = LagResult[]

/**
 * Settles `jobs` fresh jobs at a steady pace with automine on, and takes, for each observer (a
 * REST indexer), the time from a settlement's receipt to `GET /v1/jobs/:id` answering Settled.
 * Each observer asks only about its oldest unseen job (and goes on down the line as soon as one
 * is seen), so checking adds a request every `checkEveryMs`, not one per job.
 */
export async function measureLag(
  clients: BenchClients,
  { deployment, batchers, observers, jobs, paceMs, checkEveryMs = 10 }: MeasureLagParameters,
): Promise<MeasureLagReturnType> {
  const { escrow } = deployment
  const usable = await readUsableServices(clients, deployment)
  const planned = Array.from({ length: jobs }, (_, index) => ({
    service: usable[index % usable.length] as BenchService,
    buyer: benchAccounts.buyers[index % benchAccounts.buyers.length] as Address,
  }))
  const firstJobId = await clients.public.readContract({ address: escrow, abi: escrowAbi, functionName: 'nextJobId' })
  // Several buyers share each block, so ids follow the plan only per buyer: read them back.
  await setAutomine(clients.test, false)
  await createTransactionSender(clients).sendInBlocks({
    items: planned,
    build: ({ service, buyer }) =>
      batchers.batch(buyer, {
        target: escrow,
        calls: [
          {
            gas: 300_000n,
            value: service.pricePerCall,
            data: encodeFunctionData({ abi: escrowAbi, functionName: 'createJob', args: [BigInt(service.index + 1), stringToHex('lag probe'), 86_400n] }),
          },
        ],
      }),
  })
  await setAutomine(clients.test, true)
  const jobIds = Array.from({ length: jobs }, (_, index) => firstJobId + BigInt(index))
  const created = await Promise.all(
    jobIds.map((jobId) => clients.public.readContract({ address: escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })),
  )
  const settlements = await Promise.all(
    created.map(async (job, index) => {
      const service = usable.find(({ index }) => BigInt(index + 1) === job.serviceId) as BenchService
      return batchers.batch(service.seller, { target: escrow, calls: [await buildSettlement({ jobId: jobIds[index] as bigint, service })] })
    }),
  )

  const settledAt: number[] = []
  const watchers = observers.map((observer) => watchSettlements(observer, { jobIds, settledAt, checkEveryMs }))
  const startedAt = performance.now()
  for (const [index, { from, to, data, gas }] of settlements.entries()) {
    const due = startedAt + index * paceMs
    const wait = due - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    // Automine: the node answers once the block holding it is mined, so the receipt exists now.
    const hash = await clients.wallet.request({ method: 'eth_sendTransaction', params: [{ from, to, data, gas: toHex(gas) }] })
    settledAt[index] = performance.now()
    const receipt = await getTransactionReceipt(clients.public, { hash })
    if (receipt.status !== 'success') throw new BenchSetupError(`The settlement of job "${jobIds[index]}" reverted.`)
  }
  const giveUpAfterMs = Math.max(...observers.map(({ pollIntervalMs }) => pollIntervalMs)) * 3 + 5_000
  const lags = await Promise.all(watchers.map((watcher) => watcher.finish(giveUpAfterMs)))

  return observers.map(({ label, pollIntervalMs, targetP95Ms }, index) => {
    const samples = (lags[index] as number[]).slice().sort((a, b) => a - b)
    return {
      label,
      pollIntervalMs,
      targetP95Ms,
      samples: samples.length,
      p50Ms: percentile(samples, 50),
      p95Ms: percentile(samples, 95),
      maxMs: samples.at(-1) ?? Number.NaN,
      missed: jobs - samples.length,
    }
  })
}

type WatchSettlementsParameters = { jobIds: readonly bigint[]; settledAt: readonly number[]; checkEveryMs: number }
type SettlementWatcher = { finish: (timeoutMs: number) => Promise<number[]> }

function watchSettlements({ restUrl }: LagObserver, { jobIds, settledAt, checkEveryMs }: WatchSettlementsParameters): SettlementWatcher {
  const lags: number[] = []
  let next = 0
  let deadline = Number.POSITIVE_INFINITY
  const isSettled = async (jobId: bigint): Promise<boolean> => {
    const response = await fetch(`${restUrl}/v1/jobs/${jobId}`)
    if (response.status === 404) {
      await response.body?.cancel()
      return false
    }
    return ((await response.json()) as { stateName?: string }).stateName === 'Settled'
  }
  const done = (async () => {
    while (next < jobIds.length && performance.now() < deadline) {
      const sentAt = settledAt[next]
      if (sentAt !== undefined && (await isSettled(jobIds[next] as bigint))) {
        lags.push(performance.now() - sentAt)
        next += 1
        continue
      }
      await new Promise((resolve) => setTimeout(resolve, checkEveryMs))
    }
  })()
  return {
    finish: async (timeoutMs) => {
      deadline = performance.now() + timeoutMs
      await done
      return lags
    },
  }
}
