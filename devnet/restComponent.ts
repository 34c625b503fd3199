import type { DevnetComponent } from './DevnetComponent.ts'
import { startRestIndexer } from '../server/startRestIndexer.ts'

/** The indexer and REST API as part of `npm start`, logging through the process's logger. */
export const restComponent: DevnetComponent = {
  name: 'rest',
  async start({ config, logger }) {
    const { url, metricsUrl, store, stop } = await startRestIndexer(config, {
      mode: 'production',
      logger: logger.child({ service: 'rest' }),
      progressTty: process.stderr.isTTY ? process.stderr : undefined,
    })
    const urls: Record<string, string> = {
      Explorer: `${url}/`,
      'REST API': url,
      'API reference': `${url}/docs`,
      'Try the API': `${url}/docs/swagger`,
      readiness: `${url}/readyz`,
    }
    if (config.metrics !== 'off') urls['metrics'] = `${metricsUrl ?? url}/metrics`
    return { urls, stop, store }
  },
}
