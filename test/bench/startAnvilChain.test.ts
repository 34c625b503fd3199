import { createPublicClient, http } from 'viem'
import { afterAll, expect, test } from 'vitest'
import { generateJobs } from '../../bench/generateJobs.ts'
import { startBenchDevnet, type StartBenchDevnetReturnType } from '../../bench/startBenchDevnet.ts'
import { createTestIndexer } from '../indexer/support/createTestIndexer.ts'
import { readChainMarket } from '../indexer/support/readChainMarket.ts'
import { snapshotStore } from '../indexer/support/snapshotStore.ts'

let chain: StartBenchDevnetReturnType | undefined

afterAll(async () => {
  await chain?.stop()
})

test('the bench market on anvil: mined, and back-filled by the indexer equal to the chain', async () => {
  chain = await startBenchDevnet({ node: 'anvil' })
  const generated = await generateJobs(chain.clients, { deployment: chain.deployment, jobs: 300, onProgress: () => {} })

  const node = createPublicClient({ transport: http(chain.rpcUrl, { batch: true }) })
  expect(await node.getBlockNumber()).toBe(generated.headBlock)

  const indexer = createTestIndexer({ rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 200 })
  try {
    await indexer.start()
  } finally {
    await indexer.stop()
  }
  const market = await readChainMarket(node, chain.deployment)
  expect(market.jobs).toHaveLength(generated.jobs)
  expect(snapshotStore(indexer.store)).toEqual(market)
  expect(indexer.errors).toEqual([])
})

test('a stopped chain answers no more', async () => {
  const started = await startBenchDevnet({ node: 'anvil' })
  await started.stop()
  await expect(fetch(started.rpcUrl, { method: 'POST' })).rejects.toThrow()
})
