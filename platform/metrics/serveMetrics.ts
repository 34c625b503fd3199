import Fastify, { type FastifyInstance } from 'fastify'
import type { MetricsSetting } from '../../config/ConfigSchema.ts'
import type { Registry } from 'prom-client'

export type ServeMetricsParameters = {
  registry: Registry
  setting: MetricsSetting
  /** Listen address of a metrics port of its own. */
  host: string
}

export type MetricsServer = {
  /** Where `/metrics` answers when it has a port of its own; undefined otherwise. */
  url: string | undefined
  close: () => Promise<void>
}

export const metricsPath = '/metrics'

/** Adds `GET /metrics` (Prometheus text format) to an app. Not part of the API contract or openapi.json. */
export function addMetricsRoute(app: FastifyInstance, { registry }: { registry: Registry }): void {
  app.get(metricsPath, async (_request, reply) => {
    const text = await registry.metrics()
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text)
  })
}

/**
 * `/metrics` on a port of its own (`--metrics <port>`), for operators who expose the API but not
 * the metrics; `on` adds the route to the app instead (see addMetricsRoute) and `off` serves nothing.
 */
export async function serveMetrics({ registry, setting, host }: ServeMetricsParameters): Promise<MetricsServer> {
  if (typeof setting !== 'object') return { url: undefined, close: async () => undefined }
  const app = Fastify({ logger: false })
  addMetricsRoute(app, { registry })
  const url = await app.listen({ host, port: setting.port })
  return { url, close: () => app.close() }
}
