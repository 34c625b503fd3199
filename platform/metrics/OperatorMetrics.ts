import type { Registry } from 'prom-client'

/** A server's metrics: the registry its hooks record into, and whether it serves `/metrics` itself. */
export type OperatorMetrics = {
  registry: Registry
  /** Whether `/metrics` is served by this app (`--metrics on`) rather than on a port of its own. */
  route: boolean
}
