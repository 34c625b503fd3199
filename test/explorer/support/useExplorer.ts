import { initClient } from '@ts-rest/core'
import { afterAll, beforeAll } from 'vitest'
import { marketContract } from '../../../contract/router.ts'
import { startRestServer, type RestServer } from '../../rest/startRestServer.ts'
import { launchBrowser, type LaunchedBrowser } from './launchBrowser.ts'

export type ExplorerFixture = {
  /** The REST indexer serving the explorer, over the shared seeded devnet. */
  server: RestServer
  browser: LaunchedBrowser
  /** The typed client on the same server: the tests' oracle for what the pages show. */
  client: ReturnType<typeof initClient<typeof marketContract, { baseUrl: string; baseHeaders: {} }>>
}

/** Starts the server and a browser before a file's tests and stops both after them; read the fields inside tests. */
export function useExplorer(): ExplorerFixture {
  const fixture = {} as ExplorerFixture
  beforeAll(async () => {
    fixture.server = await startRestServer()
    fixture.client = initClient(marketContract, { baseUrl: fixture.server.baseUrl, baseHeaders: {} })
    fixture.browser = await launchBrowser()
  })
  afterAll(async () => {
    await fixture.browser?.close()
    await fixture.server?.stop()
  })
  return fixture
}
