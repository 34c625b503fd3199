import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { JobSchema } from '../contract/job.ts'
import { startHostedMcpServer } from '../mcp/hosted/startHostedMcpServer.ts'
import { buildApp } from '../server/http/buildApp.ts'
import { readServingOptions } from '../platform/serving/readServingOptions.ts'
import { createStore } from '../server/store/createStore.ts'
import { loadStoreServerConfig } from './loadStoreServerConfig.ts'
import { receiveBenchOptions } from './receiveBenchOptions.ts'

/** One way of serving (plain HTTP, TLS with HTTP/1.1, or TLS with HTTP/2 beside HTTP/1.1), and the id of the one job held. */
export type TlsVariant = { tls: { certPath: string; keyPath: string } | null; http2: boolean; jobId: string }

export type ServeTlsMessage = { type: 'listening'; restUrl: string; mcpUrl: string } | { type: 'cpu'; micros: number }

/**
 * The REST app and the hosted MCP server over one store holding one job, in a process of their
 * own, served as the variant says; metrics on, as by default.
 */
const variant = await receiveBenchOptions<TlsVariant>()
const send = (message: ServeTlsMessage): void => {
  process.send?.(message)
}
const store = createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })
store.putJob({
  jobId: BigInt(variant.jobId),
  job: JobSchema.parse({
    jobId: variant.jobId,
    serviceId: '1',
    buyer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    seller: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    amount: '1000000000000000',
    protocolFee: '50000000000000',
    createdAt: '1700000000',
    timeout: '1700086400',
    state: 0,
    stateName: 'Pending',
    inputCommitment: `0x${'ab'.repeat(32)}`,
  }),
})
const config = loadStoreServerConfig(variant.tls === null ? [] : ['--tls-cert', variant.tls.certPath, '--tls-key', variant.tls.keyPath])
const serving = { ...(await readServingOptions(config)), http2: variant.http2 }
const openApiText = await readFile(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8')
const app = buildApp({ store, mode: 'production', openApiText, docsHtml: '<!doctype html><title>API reference</title>', serving })
const restUrl = await app.listen({ port: 0, host: '127.0.0.1' })
// The MCP server over HTTP/2 is left out: the SDK's transport is measured over HTTP/1.1 only.
const mcp = await startHostedMcpServer(config, { store, log: () => undefined })
send({ type: 'listening', restUrl, mcpUrl: `${mcp.url}/mcp` })
process.on('message', (message: { type: string }) => {
  if (message.type === 'cpu') {
    const { user, system } = process.cpuUsage()
    send({ type: 'cpu', micros: user + system })
  }
})
