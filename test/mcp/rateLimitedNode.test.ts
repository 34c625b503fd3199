import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { connectStdioMcp, textOf } from './support/connectStdioMcp.ts'
import { devnetEnv } from './support/devnetEnv.ts'

// A public node's rate limit as some answer it: HTTP 429 with one JSON-RPC error object as the
// body, even to a batch. The stdio bin reads the chain on every call, batched; viem alone reads
// that object as the batch's array and fails with a TypeError, and so never retries.

let devnet: StartDevnetReturnType
let node: Server
let url: string
/** How many of the next batches the node refuses (a single call's refusal viem reads as it is). */
let refuseNext = 0
let refused = 0

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: true })
  node = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const body = Buffer.concat(chunks)
      if (refuseNext > 0 && body.toString().trimStart().startsWith('[')) {
        refuseNext -= 1
        refused += 1
        const refusal = { jsonrpc: '2.0', id: null, error: { code: -32005, message: 'rate limit exceeded' } }
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify(refusal))
        return
      }
      const answer = await fetch(devnet.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
    })
  })
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve) => node?.close(() => resolve()))
  await devnet?.stop()
})

test('default: a rate limit met now and then is waited out, and the call answers', async () => {
  const mcp = await connectStdioMcp({ env: devnetEnv({ ...devnet, rpcUrl: url }) })
  try {
    refused = 0
    refuseNext = 2
    const result = await mcp.call('get_service', { serviceId: '1' })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(result.structuredContent).toMatchObject({ serviceId: '1' })
    expect(refused).toBe(2)
  } finally {
    await mcp.close()
  }
})

test('a node that keeps refusing: the log names its status and its words, the agent a retry', async () => {
  const mcp = await connectStdioMcp({ env: devnetEnv({ ...devnet, rpcUrl: url }) })
  try {
    refuseNext = 1_000
    const result = await mcp.call('get_service', { serviceId: '1' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe('Tool "get_service" could not complete: the chain or indexer did not answer as expected. Try again shortly.')
    expect(mcp.logMessages()).toContain('Status: 429')
    expect(mcp.logMessages()).toContain('rate limit exceeded')
  } finally {
    refuseNext = 0
    await mcp.close()
  }
})
