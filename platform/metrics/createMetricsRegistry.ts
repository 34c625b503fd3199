import { collectDefaultMetrics, Registry } from 'prom-client'

export type { Registry }

/**
 * A Prometheus registry per server, with the process metrics (CPU, memory, event-loop lag, GC,
 * handles). Each server owns its own, so two servers in one process (npm start) never register
 * the same name twice; `service` tells their series apart.
 */
export function createMetricsRegistry({ service }: { service: string }): Registry {
  const registry = new Registry()
  registry.setDefaultLabels({ service })
  collectDefaultMetrics({ register: registry })
  return registry
}
