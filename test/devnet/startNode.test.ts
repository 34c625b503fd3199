import { createServer } from 'node:net'
import { createPublicClient, http, parseEther } from 'viem'
import { describe, expect, test } from 'vitest'
import { startNode } from '../../devnet/startNode.ts'
import { seedAccounts } from '../../devnet/seed/seedAccounts.ts'
import { NodeStartError, PortInUseError } from '../../errors/devnet.ts'
import { getFreePort } from '../support/getFreePort.ts'

test('default', async () => {
  const port = await getFreePort()
  const node = await startNode({ port })
  try {
    expect(node.rpcUrl).toBe(`http://127.0.0.1:${port}`)
    const client = createPublicClient({ transport: http(node.rpcUrl) })
    expect(await client.getChainId()).toBe(31337)
    expect(await client.getBalance({ address: seedAccounts.buyers[0]!.address })).toBeGreaterThanOrEqual(parseEther('10000'))
  } finally {
    await node.stop()
  }
  await node.exited
  await expect(fetch(node.rpcUrl, { method: 'POST' })).rejects.toThrow()
})

describe('stop', () => {
  test('twice is harmless', async () => {
    const node = await startNode({ port: await getFreePort() })
    await node.stop()
    await node.stop()
  })
})

describe('port', () => {
  test('a taken port fails with PortInUseError naming it, before anything is spawned', async () => {
    const blocker = createServer()
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)),
    )
    try {
      const error = await startNode({ port }).catch((error: unknown) => error)
      expect(error).toBeInstanceOf(PortInUseError)
      expect(error).toBeInstanceOf(NodeStartError)
      expect((error as PortInUseError).message).toBe(
        `Port ${port} on 127.0.0.1 is already in use (another node?), so the devnet node cannot listen there; nothing was sent to it. Choose another port.`,
      )
    } finally {
      blocker.close()
    }
  })

  test('a node already on the port is never taken for ours', async () => {
    const port = await getFreePort()
    const first = await startNode({ port })
    try {
      await expect(startNode({ port })).rejects.toThrow(PortInUseError)
    } finally {
      await first.stop()
    }
  })
})
