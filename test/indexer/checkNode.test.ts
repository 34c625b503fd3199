import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createPublicClient, http } from 'viem'
import { describe, expect, inject, test } from 'vitest'
import { redactUrl } from '../../config/redactUrl.ts'
import { ContractNotDeployedError, NodeUnreachableError, WrongChainError } from '../../errors/chain.ts'
import { checkNode } from '../../server/indexer/checkNode.ts'
import { getFreePort } from '../support/getFreePort.ts'

const { rpcUrl, deployment } = inject('devnet')
const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) })
const contracts = { registry: deployment.registry, escrow: deployment.escrow }

test('default', async () => {
  await expect(checkNode(client, { url: rpcUrl, chainId: deployment.chainId, contracts })).resolves.toBeUndefined()
})

describe('checkNode', () => {
  test('a wrong chain id', async () => {
    await expect(checkNode(client, { url: rpcUrl, chainId: 16661, contracts })).rejects.toThrow(
      new WrongChainError({ url: rpcUrl, expected: 16661, actual: deployment.chainId }),
    )
  })

  test('an address without code', async () => {
    const address = '0x0000000000000000000000000000000000000001'
    await expect(checkNode(client, { url: rpcUrl, chainId: deployment.chainId, contracts: { ...contracts, escrow: address } })).rejects.toThrow(
      ContractNotDeployedError,
    )
  })

  test('an unreachable node: retried for waitMs, then named without its credentials, with the cause', async () => {
    const port = await getFreePort()
    const url = `http://user:secret@127.0.0.1:${port}/v3/0123456789abcdef0123456789abcdef?apikey=hunter2&chain=1`
    const unreachable = createPublicClient({ transport: http(url, { retryCount: 0 }) })
    const startedAt = Date.now()
    const error = await checkNode(unreachable, { url, chainId: 1, contracts, waitMs: 600, retryDelayMs: 100 }).catch((caught: unknown) => caught)
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(500)
    expect(error).toBeInstanceOf(NodeUnreachableError)
    expect((error as Error).message).toBe(
      `The RPC node at "http://127.0.0.1:${port}/v3/***?apikey=***&chain=1" did not answer within 0.6 s: connect ECONNREFUSED 127.0.0.1:${port} (ECONNREFUSED).`,
    )
  })
})

test('redactUrl: user info, key-looking path segments and query values go', () => {
  expect(redactUrl('https://evmrpc.0g.ai')).toBe('https://evmrpc.0g.ai')
  expect(redactUrl('https://me:pw@eth-mainnet.g.alchemy.com/v2/abcDEF123456ghiJKL7890mn')).toBe('https://eth-mainnet.g.alchemy.com/v2/***')
  expect(redactUrl('https://rpc.example/?token=x&network=main')).toBe('https://rpc.example/?token=***&network=main')
})

describe('npm run serve', () => {
  const serve = (flags: string[]): Promise<{ code: number | null; stderr: string }> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...flags], { cwd: projectRoot, env: { ...process.env, PORT: '0' } })
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8')
      })
      child.on('exit', (code) => resolve({ code, stderr }))
    })
  const flags = (overrides: Record<string, string>): string[] =>
    Object.entries({
      network: 'devnet',
      'rpc-url': rpcUrl,
      'chain-id': String(deployment.chainId),
      registry: deployment.registry,
      escrow: deployment.escrow,
      arbiter: deployment.arbiter,
      'attestation-verifier': deployment.attestationVerifier,
      'start-block': deployment.deployBlock,
      host: '127.0.0.1',
      ...overrides,
    }).flatMap(([flag, value]) => [`--${flag}`, value])

  test('a wrong chain id or a registry without code: one line, exit 1', async () => {
    const [wrongChain, noRegistry] = await Promise.all([
      serve(flags({ 'chain-id': '16661' })),
      serve(flags({ registry: '0x0000000000000000000000000000000000000002' })),
    ])
    expect(wrongChain).toEqual({
      code: 1,
      stderr: `The RPC node at "${rpcUrl}" serves chain ${deployment.chainId}, but the configuration expects chain 16661 (check --rpc-url and --chain-id).\n`,
    })
    expect(noRegistry).toEqual({
      code: 1,
      stderr: `The registry address 0x0000000000000000000000000000000000000002 holds no contract on the chain at "${rpcUrl}" (check --registry and --rpc-url).\n`,
    })
  })
})
