import { createClient, custom } from 'viem'
import { describe, expect, test } from 'vitest'
import { cacheChainId } from '../../mcp/hosted/cacheChainId.ts'

/** A node that answers eth_chainId after `delayMs` (never when null), counting the calls. */
function countingNode({ delayMs = 0 }: { delayMs?: number | null } = {}) {
  const calls: string[] = []
  const client = createClient({
    transport: custom({
      request: async ({ method }: { method: string }) => {
        calls.push(method)
        if (delayMs === null) return new Promise(() => undefined)
        await new Promise((resolve) => setTimeout(resolve, delayMs))
        return '0x7a69'
      },
    }, { retryCount: 0 }),
  })
  return { client, calls }
}

test('default: a hundred reads within the age ask the node once', async () => {
  const { client, calls } = countingNode({ delayMs: 20 })
  const readChainId = cacheChainId(client, { maxAgeMs: 5_000 })
  const answers = await Promise.all(Array.from({ length: 100 }, () => readChainId()))
  expect(new Set(answers)).toEqual(new Set([31337]))
  expect(await readChainId()).toBe(31337)
  expect(calls).toEqual(['eth_chainId'])
})

describe('maxAgeMs', () => {
  test('a read after the age asks the node again', async () => {
    const { client, calls } = countingNode()
    const readChainId = cacheChainId(client, { maxAgeMs: 50 })
    await readChainId()
    await new Promise((resolve) => setTimeout(resolve, 80))
    await readChainId()
    expect(calls).toHaveLength(2)
  })
})

describe('timeoutMs', () => {
  test('a node that does not answer is null, and is not asked again within the age', async () => {
    const { client, calls } = countingNode({ delayMs: null })
    const readChainId = cacheChainId(client, { maxAgeMs: 5_000, timeoutMs: 50 })
    expect(await readChainId()).toBeNull()
    expect(await readChainId()).toBeNull()
    expect(calls).toHaveLength(1)
  })
})
