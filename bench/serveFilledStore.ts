import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Address } from 'viem'
import type { Job } from '../contract/job.ts'
import { buildApp } from '../server/http/buildApp.ts'
import { createStore } from '../server/store/createStore.ts'
import { fillSyntheticStore, syntheticBuyer, syntheticSeller } from './fillSyntheticStore.ts'
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
fillSyntheticStore(store, { from: 1, to: jobs })
const fillMs = performance.now() - startedAt
const heapBytesPerJob = (heapAfterGc() - heapBefore) / jobs

const openApiText = await readFile(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8')
const app = buildApp({ store, mode: 'production', openApiText, docsHtml: '<!doctype html><title>API reference</title>' })
const touched = store.jobList[0]?.job as Job
app.addHook('onRequest', async () => {
  store.putJob({ jobId: BigInt(touched.jobId), job: touched })
})
const restUrl = await app.listen({ port: 0, host: '127.0.0.1' })
send({ type: 'listening', restUrl, seller: syntheticSeller, buyer: syntheticBuyer, serviceId: '1', heapBytesPerJob, fillMs })
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
