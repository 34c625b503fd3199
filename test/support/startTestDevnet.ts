import { startDevnet, type StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { NodeStartError } from '../../errors/devnet.ts'
import { getFreePort } from './getFreePort.ts'

export type StartTestDevnetParameters = {
  /** Fill the market with the deterministic demo data (default true). */
  seed?: boolean
}

/**
 * A devnet of its own on a free port, for tests that move time, mine or write: the shared one
 * from globalSetup must stay as seeded. Call `stop()` in `afterAll`.
 */
export async function startTestDevnet({ seed = true }: StartTestDevnetParameters = {}): Promise<StartDevnetReturnType> {
  // Another process can take the free port between our probe and hardhat's bind: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDevnet({ port: await getFreePort(), seed })
    } catch (error) {
      if (!(error instanceof NodeStartError) || attempt === 3) throw error
    }
  }
}
