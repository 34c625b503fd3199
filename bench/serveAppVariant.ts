import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { pino } from 'pino'
import { buildApp } from '../server/http/buildApp.ts'
import type { RateLimitSettings } from '../platform/http/addRateLimit.ts'
import { createLogger } from '../platform/logging/createLogger.ts'
import { createMetricsRegistry } from '../platform/metrics/createMetricsRegistry.ts'
import { createStore } from '../server/store/createStore.ts'
import { receiveBenchOptions } from './receiveBenchOptions.ts'

/**
 * One way of running the REST app: with or without /metrics and its request hook, access logs,
 * and the per-client request limiter (null: none).
 */
export type AppVariant = { metrics: boolean; accessLog: boolean; rateLimit: RateLimitSettings | null }

export type ServeAppVariantMessage = { type: 'listening'; url: string } | { type: 'cpu'; micros: number }

/**
 * The REST app over a small store in its own process, as one variant of a stage that compares
 * them: the logger writes JSON lines to /dev/null (their cost is building and writing them, not
 * the terminal's).
 */
const variant = await receiveBenchOptions<AppVariant>()
const send = (message: ServeAppVariantMessage): void => {
  process.send?.(message)
}
const store = createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })
const openApiText = await readFile(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8')
const logger = createLogger({ level: 'info', stream: pino.destination({ dest: '/dev/null', sync: false }), pretty: false })
const registry = variant.metrics ? createMetricsRegistry({ service: 'rest' }) : undefined
const app = buildApp({
  store,
  mode: 'production',
  openApiText,
  docsHtml: '<!doctype html><title>API reference</title>',
  logger,
  accessLog: variant.accessLog,
  metrics: registry === undefined ? undefined : { registry, route: true },
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
