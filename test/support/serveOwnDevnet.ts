import { expect } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { createMarketDriver, type MarketDriver } from '../indexer/support/createMarketDriver.ts'
import { spawnEntryPoint, type SpawnedEntryPoint } from '../rest/spawnEntryPoint.ts'
import { deploymentArgv } from './deploymentArgv.ts'
import { eventually } from './eventually.ts'
import { getFreePort } from './getFreePort.ts'
import { startTestDevnet } from './startTestDevnet.ts'

export type ServedDevnet = {
  devnet: StartDevnetReturnType
  /** Writes to the devnet: registers, creates, settles, disputes, mines, snapshots, reverts. */
  market: MarketDriver
  serve: SpawnedEntryPoint
  /** Where `npm run serve` answers, ready (`/readyz` 200). */
  baseUrl: string
}

/**
 * `npm run serve` (dist/app/serve.js) as an operator runs it, at its default settings, over an
 * empty devnet of the test's own (for tests that mine, snapshot and revert); resolves once it is
 * ready. Stop `serve`, then `devnet`, in `afterAll`.
 */
export async function serveOwnDevnet(): Promise<ServedDevnet> {
  const devnet = await startTestDevnet({ seed: false })
  const market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  const port = await getFreePort()
  const serve = spawnEntryPoint(['dist/app/serve.js', '--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment), '--port', String(port)])
  const baseUrl = `http://127.0.0.1:${port}`
  try {
    await serve.waitFor(/serving on http:\/\/127\.0\.0\.1:\d+/)
    await eventually(async () => expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200))
  } catch (error) {
    await serve.stop()
    await devnet.stop()
    throw error
  }
  return { devnet, market, serve, baseUrl }
}
