import { createPublicClient, http } from 'viem'
import { getBlock } from 'viem/actions'
import { describe, expect, inject, test } from 'vitest'
import { findBlockByTimestamp } from '../../chain/read/findBlockByTimestamp.ts'
import { BlockByTimestampNotFoundError } from '../../errors/chain.ts'

const { rpcUrl, deployment } = inject('devnet')
const client = createPublicClient({ transport: http(rpcUrl) })

test('default', async () => {
  const deployed = await getBlock(client, { blockNumber: BigInt(deployment.deployBlock) })
  const found = await findBlockByTimestamp(client, { timestamp: deployed.timestamp })
  const [block, before] = await Promise.all([
    getBlock(client, { blockNumber: found }),
    getBlock(client, { blockNumber: found - 1n }),
  ])
  expect(block.timestamp).toBeGreaterThanOrEqual(deployed.timestamp)
  expect(before.timestamp).toBeLessThan(deployed.timestamp)
  expect(found).toBeLessThanOrEqual(deployed.number)
})

describe('timestamp', () => {
  test('before the first block: block 0', async () => {
    expect(await findBlockByTimestamp(client, { timestamp: 0n })).toBe(0n)
  })

  test('between two blocks: the later one', async () => {
    // The seed moves the clock forward by minutes once, so some block is seconds after its parent.
    let later = await getBlock(client, { blockTag: 'latest' })
    let previous = await getBlock(client, { blockNumber: later.number - 1n })
    while (later.timestamp - previous.timestamp <= 1n && previous.number > 0n) {
      later = previous
      previous = await getBlock(client, { blockNumber: later.number - 1n })
    }
    expect(later.timestamp - previous.timestamp).toBeGreaterThan(1n)
    expect(await findBlockByTimestamp(client, { timestamp: previous.timestamp + 1n })).toBe(later.number)
  })

  test('after the head: throws', async () => {
    const head = await getBlock(client, { blockTag: 'latest' })
    await expect(findBlockByTimestamp(client, { timestamp: head.timestamp + 3_600n })).rejects.toThrowError(
      BlockByTimestampNotFoundError,
    )
  })
})
