import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../server/http/buildApp.ts'
import type { RateLimitSettings } from '../server/http/addRateLimit.ts'
import { createStore } from '../server/store/createStore.ts'
import { receiveBenchOptions } from './receiveBenchOptions.ts'

/** The REST app without the per-client request limiter, or with it at the given settings. */
export type RateLimitVariant = { rateLimit: RateLimitSettings | null }

export type ServeRateLimitMessage = { type: 'listening'; url: string } | { type: 'cpu'; micros: number }

/** The REST app over a small store in its own process, as one variant of the limiter stage. */
const variant = await receiveBenchOptions<RateLimitVariant>()
const send = (message: ServeRateLimitMessage): void => {
  process.send?.(message)
}
const store = createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })
const openApiText = await readFile(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8')
const app = buildApp({
  store,
  mode: 'production',
  openApiText,
  docsHtml: '<!doctype html><title>API reference</title>',
  rateLimit: variant.rateLimit ?? undefined,
})
const url = await app.listen({ port: 0, host: '127.0.0.1' })
send({ type: 'listening', url })
process.on('message', (message: { type: string }) => {
  if (message.type === 'cpu') {
    const { user, system } = process.cpuUsage()
    send({ type: 'cpu', micros: user + system })
  }
})
