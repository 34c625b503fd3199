import { Gauge, type Registry } from 'prom-client'

export type AddCollectedGaugeParameters = {
  name: string
  help: string
  /** The value at a scrape; undefined leaves the gauge without a sample (or at its last one). */
  read: () => number | undefined
}

/** A gauge read when Prometheus scrapes, from state kept elsewhere: nothing to keep in step. */
export function addCollectedGauge(registry: Registry, { name, help, read }: AddCollectedGaugeParameters): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read()
      if (value !== undefined) this.set(value)
    },
  })
}
