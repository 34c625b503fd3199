import { afterAll, beforeAll, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { getJob } from '../../server/readers/index.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { createMarketDriver } from './support/createMarketDriver.ts'
import { createTestIndexer, type TestIndexer } from './support/createTestIndexer.ts'

const pollIntervalMs = 500
/** The functional bound: one poll interval plus a second for the poll itself. */
const lagBoundMs = pollIntervalMs + 1_000
const settlements = 5

let devnet: StartDevnetReturnType
let indexer: TestIndexer

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: false })
})

afterAll(async () => {
  await indexer?.stop()
  await devnet?.stop()
})

test('a settlement is visible through the readers within a poll interval plus one second', async () => {
  const market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  const serviceId = await market.registerService()
  indexer = createTestIndexer({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment, pollIntervalMs })
  await indexer.start()

  const lags: number[] = []
  for (let round = 0; round < settlements; round += 1) {
    const jobId = await market.createJob({ serviceId })
    await market.settleJob(jobId)
    const settledAt = performance.now()
    while (getSettledState(indexer, jobId) !== 'Settled' && performance.now() - settledAt < 10 * lagBoundMs) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    lags.push(performance.now() - settledAt)
    expect(getSettledState(indexer, jobId)).toBe('Settled')
  }
  console.log(`settlement → reader lag at a ${pollIntervalMs} ms poll interval: ${lags.map((lag) => lag.toFixed(0)).join(', ')} ms`)
  expect(Math.max(...lags)).toBeLessThanOrEqual(lagBoundMs)
})

function getSettledState(indexer: TestIndexer, jobId: bigint): string | undefined {
  return indexer.store.job(jobId) !== undefined ? getJob(indexer.store, { jobId }).stateName : undefined
}
