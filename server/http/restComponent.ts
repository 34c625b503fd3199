import type { DevnetComponent } from '../../devnet/DevnetComponent.ts'
import { startRestIndexer } from './startRestIndexer.ts'

/** The indexer and REST API as part of `npm start`; only warnings reach the terminal. */
export const restComponent: DevnetComponent = {
  name: 'rest',
  async start({ config }) {
    const { url, store, stop } = await startRestIndexer(config, {
      mode: 'production',
      logger: { level: 'warn', stream: process.stderr },
    })
    return {
      urls: { Explorer: `${url}/`, 'REST API': url, 'API reference': `${url}/docs`, 'Try the API': `${url}/docs/swagger` },
      stop,
      store,
    }
  },
}
