import { afterAll, beforeAll } from 'vitest'
import type { StartDevnetReturnType } from '../../../devnet/startDevnet.ts'
import { createMarketDriver, type MarketDriver } from '../../indexer/support/createMarketDriver.ts'
import { startRestServer, type RestServer } from '../../rest/startRestServer.ts'
import { startTestDevnet } from '../../support/startTestDevnet.ts'
import { launchBrowser, type LaunchedBrowser } from './launchBrowser.ts'

export type OwnMarketFixture = {
  /** A devnet of the file's own, with no seeded market: its tests write to it (and may revert it). */
  devnet: StartDevnetReturnType
  market: MarketDriver
  /** The REST indexer serving the explorer, following that devnet. */
  server: RestServer
  browser: LaunchedBrowser
}

/** Starts a chain, its indexer and a browser before a file's tests and stops them after; read the fields inside tests. */
export function useOwnMarket(): OwnMarketFixture {
  const fixture = {} as OwnMarketFixture
  beforeAll(async () => {
    fixture.devnet = await startTestDevnet({ seed: false })
    fixture.market = createMarketDriver({ rpcUrl: fixture.devnet.rpcUrl, deployment: fixture.devnet.deployment })
    fixture.server = await startRestServer({ devnet: fixture.devnet })
    fixture.browser = await launchBrowser()
  })
  afterAll(async () => {
    await fixture.browser?.close()
    await fixture.server?.stop()
    await fixture.devnet?.stop()
  })
  return fixture
}
