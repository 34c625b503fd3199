import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { getAddress, numberToHex, type Address } from 'viem'
import type { DisputeEvent } from '../contract/disputeEvent.ts'
import { jobStateNames, type Job, type JobEvent, type JobEventName } from '../contract/job.ts'
import { buildApp } from '../server/http/buildApp.ts'
import { createStore, type Store } from '../server/store/createStore.ts'
import { receiveBenchOptions } from './receiveBenchOptions.ts'

export type ServeFilledStoreOptions = { jobs: number }

export type ServeFilledStoreMessage =
  | {
      type: 'listening'
      restUrl: string
      /** A seller, a buyer and a service of the market, for the filters. */
      seller: Address
      buyer: Address
      serviceId: string
      /** Heap after filling and a full GC, over the jobs (bytes per job, the store's share and the process's). */
      heapBytesPerJob: number
      fillMs: number
    }
  | { type: 'cpu'; micros: number }

const sellers = 20
const servicesPerSeller = 3
const buyers = 200
/** Shares of the outcomes out of 100, about what a busy market settles to (the seeded devnet's mix, fewer Pending). */
const outcomeShares = { Settled: 70, Expired: 12, Pending: 5, Disputed: 9, Slashed: 4 } as const
const amount = 1_000_000_000_000_000n
const firstBlockTime = 1_778_220_000

/**
 * The REST app (buildApp, as server/main.ts builds it) on a real socket, over a store filled
 * directly with `jobs` synthetic jobs in the shape the indexer stores them (records, histories,
 * dispute events), no chain behind it: a hardhat devnet holds about 0.4 MB per job, so a
 * 100,000-job chain would need some 40 GB. Before each request the store changes (one job's record
 * put again), as in a live market: no answer comes from a kept body or a 304, so every figure is
 * the reader, the serializer and HTTP.
 */
const { jobs } = await receiveBenchOptions<ServeFilledStoreOptions>()
const send = (message: ServeFilledStoreMessage): void => {
  process.send?.(message)
}
const store = createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })
const startedAt = performance.now()
const heapBefore = heapAfterGc()
fillStore(store, jobs)
const fillMs = performance.now() - startedAt
const heapBytesPerJob = (heapAfterGc() - heapBefore) / jobs

const openApiText = await readFile(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8')
const app = buildApp({ store, mode: 'production', openApiText, docsHtml: '<!doctype html><title>API reference</title>' })
const touched = store.jobList[0]?.job as Job
app.addHook('onRequest', async () => {
  store.putJob({ jobId: BigInt(touched.jobId), job: touched })
})
const restUrl = await app.listen({ port: 0, host: '127.0.0.1' })
send({ type: 'listening', restUrl, seller: address(1), buyer: address(sellers + 1), serviceId: '1', heapBytesPerJob, fillMs })
process.on('message', (message: { type: string }) => {
  if (message.type === 'cpu') {
    const { user, system } = process.cpuUsage()
    send({ type: 'cpu', micros: user + system })
  }
})

function heapAfterGc(): number {
  globalThis.gc?.()
  return process.memoryUsage().heapUsed
}

/** Sellers are accounts 1..20, buyers the next 200: addresses made from the number, EIP-55. */
function address(index: number): Address {
  return getAddress(numberToHex(index, { size: 20 }))
}

/** A well-spread hash of a number (two rounds of a multiply-xorshift): the service, state and buyer of a job vary apart. */
function mix(value: number): number {
  let x = value | 0
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b)
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b)
  return (x ^ (x >>> 16)) >>> 0
}

/** Jobs 1..count, spread over the services and buyers, each with the history its state takes. */
function fillStore(store: Store, count: number): void {
  const outcomes = Object.entries(outcomeShares).flatMap(([name, share]) => Array<string>(share).fill(name))
  for (let id = 1; id <= count; id += 1) {
    const service = mix(id * 3) % (sellers * servicesPerSeller)
    const stateName = outcomes[mix(id * 3 + 1) % outcomes.length] as Job['stateName']
    const state = jobStateNames.indexOf(stateName)
    const block = 10 + id * 3
    const at = (offset: number, logIndex: number, event: JobEventName): JobEvent => ({
      event,
      blockNumber: String(block + offset),
      transactionHash: numberToHex(BigInt(id) * 16n + BigInt(offset), { size: 32 }),
      logIndex,
      timestamp: String(firstBlockTime + (block + offset) * 2),
    })
    const hex32 = (salt: number) => numberToHex(BigInt(id) * 1_000n + BigInt(salt), { size: 32 })
    const attested = state >= jobStateNames.indexOf('Settled') && stateName !== 'Expired'
    const job: Job = {
      jobId: String(id),
      serviceId: String(service + 1),
      buyer: address(sellers + 1 + (mix(id * 3 + 2) % buyers)),
      seller: address(1 + Math.floor(service / servicesPerSeller)),
      amount: amount.toString(),
      protocolFee: (amount / 20n).toString(),
      createdAt: String(firstBlockTime + block * 2),
      timeout: String(firstBlockTime + block * 2 + 3_600),
      state,
      stateName,
      inputCommitment: hex32(1),
      ...(attested
        ? {
            outputRootHash: hex32(2),
            chatId: hex32(3),
            attestationText: numberToHex(BigInt(id), { size: 198 }),
            attestationSignature: numberToHex(BigInt(id), { size: 65 }),
            attestation: null,
          }
        : {}),
    }
    const jobId = BigInt(id)
    store.putJob({ jobId, job })
    store.addJobEvent({ jobId, event: at(0, 0, 'JobCreated') })
    if (stateName === 'Expired') store.addJobEvent({ jobId, event: at(1, 0, 'JobExpired') })
    if (!attested) continue
    store.addJobEvent({ jobId, event: at(1, 0, 'JobAttested') })
    store.addJobEvent({ jobId, event: at(1, 1, 'JobSettled'), settledWei: amount })
    if (stateName === 'Settled') continue
    const disputer = address(sellers + 1 + (mix(id * 3 + 2) % buyers))
    const disputed = at(2, 0, 'JobDisputed')
    const opened = at(2, 1, 'DisputeOpened')
    const disputeEvents: DisputeEvent[] = [
      { ...disputed, event: 'JobDisputed', disputer },
      { ...opened, event: 'DisputeOpened', disputer, bond: '10000000000000000' },
    ]
    if (stateName === 'Slashed') {
      const split = { toDisputer: '3500000000000000000', toTreasury: '1000000000000000000', burned: '500000000000000000' }
      disputeEvents.push(
        { ...at(3, 0, 'JobSlashed'), event: 'JobSlashed', slashedSeller: job.seller, bondAmount: '5000000000000000000', ...split },
        { ...at(3, 1, 'Slashed'), event: 'Slashed', disputer, sellerBondSlashed: '5000000000000000000', ...split },
      )
    }
    for (const dispute of disputeEvents) {
      const { event, blockNumber, transactionHash, logIndex, timestamp } = dispute
      store.addJobEvent({ jobId, event: { event, blockNumber, transactionHash, logIndex, timestamp }, dispute })
    }
  }
}
