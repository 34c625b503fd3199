import type { FastifyInstance } from 'fastify'
import type { OperatorMetrics } from '../../platform/metrics/OperatorMetrics.ts'
import { addHttpMetrics } from '../../platform/metrics/addHttpMetrics.ts'
import { addMetricsRoute, metricsPath } from '../../platform/metrics/serveMetrics.ts'
import { getReadiness } from '../readers/getReadiness.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { refuseQuery } from './refuseQuery.ts'

export const readinessPath = '/readyz'

export type RegisterOperatorRoutesParameters = {
  store: StoreReader
  /** Undefined when metrics are off: no hook and no route, so they cost nothing. */
  metrics?: OperatorMetrics | undefined
}

/** The paths this adds, for the read-only guards and the not-found message. */
export function listOperatorPaths({ metrics }: Pick<RegisterOperatorRoutesParameters, 'metrics'>): string[] {
  return metrics?.route === true ? [readinessPath, metricsPath] : [readinessPath]
}

/**
 * What operators and load balancers read, outside the API contract (not in openapi.json):
 * `GET /readyz` (200 when ready, 503 with the reason) and, with metrics on, the request metrics
 * hook and `GET /metrics`.
 */
export function registerOperatorRoutes(app: FastifyInstance, { store, metrics }: RegisterOperatorRoutesParameters): void {
  app.get(readinessPath, { onRequest: refuseQuery }, async (_request, reply) => {
    const readiness = getReadiness(store)
    return reply.status(readiness.ready ? 200 : 503).header('cache-control', 'no-store').send(readiness)
  })
  if (metrics === undefined) return
  addHttpMetrics(app, { registry: metrics.registry })
  if (metrics.route) addMetricsRoute(app, { registry: metrics.registry })
}
