import { mine, setNextBlockTimestamp } from 'viem/actions'
import type { TestClient } from 'viem'

/**
 * Mines one block stamped with the wall clock, from which the node's clock runs on at the wall
 * clock's pace: jobs created next read "just now", not minutes ahead. The chain's clock must be
 * behind the wall clock (the seed starts it in the past), since a block can never go back in time.
 */
export async function setChainClockToNow(testClient: TestClient): Promise<void> {
  await setNextBlockTimestamp(testClient, { timestamp: BigInt(Math.floor(Date.now() / 1_000)) })
  await mine(testClient, { blocks: 1 })
}
