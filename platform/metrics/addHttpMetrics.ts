import type { FastifyInstance } from 'fastify'
import { Histogram, type Registry } from 'prom-client'

/** Latency buckets in seconds: the REST API answers in well under a millisecond, tool calls may take seconds. */
const buckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/**
 * Counts every answer by route template (`/v1/jobs/:jobId`, never the raw URL: one series per route,
 * whatever ids clients send), method and status, with its latency. Requests no route matched share
 * the route "unmatched". A hook on the app, so routes registered later are counted too.
 */
export function addHttpMetrics(app: FastifyInstance, { registry }: { registry: Registry }): void {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route template, method and status, with their latency (time to the last byte written).',
    labelNames: ['route', 'method', 'status'] as const,
    buckets,
    registers: [registry],
  })
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched'
    duration.observe({ route, method: request.method, status: reply.statusCode }, reply.elapsedTime / 1000)
    done()
  })
}
