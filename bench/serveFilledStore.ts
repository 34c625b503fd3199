import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Address } from 'viem'
import type { Job } from '../contract/job.ts'
import { startHostedMcpServer } from '../mcp/hosted/startHostedMcpServer.ts'
import { buildApp } from '../server/http/buildApp.ts'
import { createStore } from '../server/store/createStore.ts'
import { benchAccounts } from './benchAccounts.ts'
import { fillSyntheticStore, syntheticBuyer, syntheticSeller } from './fillSyntheticStore.ts'
import { loadStoreServerConfig } from './loadStoreServerConfig.ts'
import { receiveBenchOptions } from './receiveBenchOptions.ts'

export type ServeFilledStoreOptions = {
  jobs: number
  /** Also start the hosted MCP server, reading the store in this process (as `npm run serve -- --mcp-port` does). */
  mcp?: boolean
}

export type ServeFilledStoreMessage =
  | {
      type: 'listening'
      restUrl: string
      /** The MCP endpoint, when asked for. */
      mcpUrl: string | null
      /** A seller, a buyer and a service of the market, for the filters. */
      seller: Address
      buyer: Address
      serviceId: string
      /** The seller with the most jobs, for `/v1/sellers/:address`. */
      busiestSeller: Address
      /** A Settled job from the middle of the store (its detail carries the attestation and three events). */
      sampleJobId: string
      /** Heap and RSS after filling and a full GC, over the jobs (bytes per job: the store's share of the process). */
      heapBytesPerJob: number
      rssBytesPerJob: number
      fillMs: number
    }
  | { type: 'cpu'; micros: number }

/**
 * The REST app (buildApp, as server/main.ts builds it) on a real socket, and the hosted MCP server
 * if asked, over a store filled directly with `jobs` jobs of the bench's market in the shape the
 * indexer stores them (fillSyntheticStore), no chain behind it: a hardhat devnet holds about 35 KB
 * per job, so a 1,000,000-job chain would need some 35 GB. Before each REST request the store
 * changes (one job's record put again), as in a live market: no answer comes from a kept body or a
 * 304, so every figure is the reader, the serializer and HTTP.
 */
const { jobs, mcp = false } = await receiveBenchOptions<ServeFilledStoreOptions>()
const send = (message: ServeFilledStoreMessage): void => {
  process.send?.(message)
}
const memory = (): { heapUsed: number; rss: number } => {
  globalThis.gc?.()
  const { heapUsed, rss } = process.memoryUsage()
  return { heapUsed, rss }
}
const store = createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })
const before = memory()
const startedAt = performance.now()
fillSyntheticStore(store, { from: 1, to: jobs })
const fillMs = performance.now() - startedAt
const filled = memory()

const openApiText = await readFile(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8')
const app = buildApp({ store, mode: 'production', openApiText, docsHtml: '<!doctype html><title>API reference</title>' })
const touched = store.jobList[0]?.job as Job
app.addHook('onRequest', async () => {
  store.putJob({ jobId: BigInt(touched.jobId), job: touched })
})
const restUrl = await app.listen({ port: 0, host: '127.0.0.1' })
const mcpServer = mcp ? await startHostedMcpServer(loadStoreServerConfig(), { store, log: (message) => process.stderr.write(`${message}\n`) }) : undefined
const settled = store.stateJobs(3)
const busiestSeller = benchAccounts.sellers.reduce((busiest, seller) =>
  store.sellerJobs(seller).length > store.sellerJobs(busiest).length ? seller : busiest,
) as Address
send({
  type: 'listening',
  restUrl,
  mcpUrl: mcpServer === undefined ? null : `${mcpServer.url}/mcp`,
  seller: syntheticSeller,
  buyer: syntheticBuyer,
  serviceId: '1',
  busiestSeller,
  sampleJobId: settled[Math.floor(settled.length / 2)]?.job.jobId ?? '1',
  heapBytesPerJob: (filled.heapUsed - before.heapUsed) / jobs,
  rssBytesPerJob: (filled.rss - before.rss) / jobs,
  fillMs,
})
process.on('message', (message: { type: string }) => {
  if (message.type === 'cpu') {
    const { user, system } = process.cpuUsage()
    send({ type: 'cpu', micros: user + system })
  }
})
