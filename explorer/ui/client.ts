import { initClient } from '@ts-rest/core'
import { marketContract } from '../../contract/router.ts'

/**
 * The typed client over the REST contract, as our users make it. Relative to the page's origin:
 * the explorer is served by the indexer it reads. The one place the explorer makes its client, so
 * it can be pointed at the package's own `createMarketClient` when that lands.
 */
export const client = initClient(marketContract, { baseUrl: '', baseHeaders: {}, throwOnUnknownStatus: false })
