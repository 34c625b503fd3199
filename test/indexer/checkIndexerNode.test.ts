import { afterEach, expect, test } from 'vitest'
import { NodeUnreachableError, WrongChainError } from '../../errors/chain.ts'
import { checkIndexerNode } from '../../server/indexer/startIndexer.ts'
import { startRpcStub, type RpcStub } from '../rpc/support/startRpcStub.ts'
import { getFreePort } from '../support/getFreePort.ts'

const stubs: RpcStub[] = []
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()))
})

/** A node of chain `chainId` on which every address holds code. */
async function nodeOf(chainId: number): Promise<string> {
  const stub = await startRpcStub({ answer: (call) => ({ result: call.method === 'eth_chainId' ? `0x${chainId.toString(16)}` : '0x6080' }) })
  stubs.push(stub)
  return stub.url
}

const contracts = { registry: '0x0000000000000000000000000000000000000001', escrow: '0x0000000000000000000000000000000000000002' } as const

test('default', async () => {
  await expect(checkIndexerNode({ rpcUrl: await nodeOf(31337), fallbackRpcUrls: [await nodeOf(31337)], chainId: 31337, ...contracts })).resolves.toEqual({
    unreachable: [],
  })
})

test('a fallback node serving another chain is named', async () => {
  const wrong = await nodeOf(1)
  await expect(checkIndexerNode({ rpcUrl: await nodeOf(31337), fallbackRpcUrls: [wrong], chainId: 31337, ...contracts })).rejects.toThrow(
    new WrongChainError({ url: wrong, expected: 31337, actual: 1 }),
  )
})

test('a fallback node that does not answer is returned, not thrown; no node answering is thrown', async () => {
  const down = `http://127.0.0.1:${await getFreePort()}`
  const { unreachable } = await checkIndexerNode({ rpcUrl: await nodeOf(31337), fallbackRpcUrls: [down], chainId: 31337, ...contracts }, { waitMs: 300 })
  expect(unreachable).toHaveLength(1)
  expect(unreachable[0]?.message).toContain(down)
  await expect(checkIndexerNode({ rpcUrl: down, fallbackRpcUrls: [], chainId: 31337, ...contracts }, { waitMs: 300 })).rejects.toThrow(NodeUnreachableError)
})
