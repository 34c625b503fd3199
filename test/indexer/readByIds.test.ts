import solc from 'solc'
import { ContractFunctionExecutionError, ContractFunctionRevertedError, createPublicClient, HttpRequestError, http } from 'viem'
import { readContract } from 'viem/actions'
import { afterEach, describe, expect, inject, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { toJob } from '../../chain/mappers/toJob.ts'
import { toService } from '../../chain/mappers/toService.ts'
import { readByIds } from '../../chain/read/readByIds.ts'
import { readByIdsCode, readByIdsSource } from '../../chain/read/readByIdsCode.ts'
import { readJobs } from '../../chain/read/readJobs.ts'
import { readServices } from '../../chain/read/readServices.ts'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'

const { rpcUrl, deployment } = inject('devnet')
const { escrow, registry } = deployment
const client = createPublicClient({ transport: http(rpcUrl, { batch: true }) })

const [nextJobId, nextServiceId] = await Promise.all([
  readContract(client, { address: escrow, abi: escrowAbi, functionName: 'nextJobId' }),
  readContract(client, { address: registry, abi: registryAbi, functionName: 'nextServiceId' }),
])
const idsBelow = (next: bigint) => Array.from({ length: Number(next - 1n) }, (_, index) => BigInt(index + 1))
const readJobAlone = (jobId: bigint) =>
  readContract(client, { address: escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })
const readServiceAlone = (serviceId: bigint) =>
  readContract(client, { address: registry, abi: registryAbi, functionName: 'getService', args: [serviceId] })
const settledJobId = await (async () => {
  for (const jobId of idsBelow(nextJobId)) if ((await readJobAlone(jobId)).attestationText !== '0x') return jobId
  throw new Error('The seeded market has no attested job.')
})()

let proxy: FaultProxy | undefined
afterEach(async () => {
  await proxy?.stop()
  proxy = undefined
})

/** A client without batching through a proxy that counts requests, so each request is one eth_call. */
async function countingClient(parameters: { faultRate?: number } = {}) {
  proxy = await startFaultProxy({ target: rpcUrl, kinds: ['status500'], ...parameters })
  return { counted: createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) }), proxy }
}

test('default', async () => {
  const ids = idsBelow(nextJobId)
  expect(ids.length).toBeGreaterThan(24)
  const individually = await Promise.all(ids.map(async (jobId) => toJob(jobId, await readJobAlone(jobId))))
  expect(await readJobs(client, { escrow, ids })).toEqual(individually)
})

test('the reader code is what its source compiles to', () => {
  const input = {
    language: 'Yul',
    sources: { 'ReadByIds.yul': { content: readByIdsSource } },
    settings: {
      evmVersion: 'paris',
      optimizer: { enabled: true, details: { yul: true } },
      outputSelection: { '*': { '*': ['evm.bytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>
  }
  expect(`0x${output.contracts['ReadByIds.yul']?.['ReadByIds']?.evm.bytecode.object}`).toBe(readByIdsCode)
})

describe('ids', () => {
  test('services: every id in one call, same as getService one by one', async () => {
    const ids = idsBelow(nextServiceId)
    const individually = await Promise.all(ids.map(async (serviceId) => toService(serviceId, await readServiceAlone(serviceId))))
    const { counted, proxy } = await countingClient()
    expect(await readServices(counted, { registry, ids })).toEqual(individually)
    expect(proxy.requests()).toBe(Math.ceil(ids.length / 20))
  })

  test('in the order given, repeats included', async () => {
    const ids = [3n, 1n, 3n, 2n]
    const individually = await Promise.all(ids.map(async (jobId) => toJob(jobId, await readJobAlone(jobId))))
    expect(await readJobs(client, { escrow, ids })).toEqual(individually)
  })

  test('none: no request', async () => {
    const { counted, proxy } = await countingClient()
    expect(await readJobs(counted, { escrow, ids: [] })).toEqual([])
    expect(proxy.requests()).toBe(0)
  })

  test('an unknown id: the revert a plain getJob gets', async () => {
    const unknown = nextJobId + 1_000n
    const alone = await readJobAlone(unknown).catch((error: unknown) => error)
    expect(alone).toBeInstanceOf(ContractFunctionExecutionError)
    const batched = await readJobs(client, { escrow, ids: [1n, unknown, 2n] }).catch((error: unknown) => error)
    expect(batched).toBeInstanceOf(ContractFunctionExecutionError)
    const revert = (batched as ContractFunctionExecutionError).cause
    expect(revert).toBeInstanceOf(ContractFunctionRevertedError)
    // The reference escrow's JobNotFound() names no id: the message says which call reverted.
    expect((revert as ContractFunctionRevertedError).data?.errorName).toBe('JobNotFound')
    expect((batched as Error).message).toBe((alone as Error).message)
  })
})

describe('failures', () => {
  test('a call returning more than 24,576 bytes is refused by the node, split and read in halves', async () => {
    const ids = Array.from({ length: 40 }, () => settledJobId)
    const { counted, proxy } = await countingClient()
    const jobs = await readByIds(counted, { address: escrow, abi: escrowAbi, functionName: 'getJob', ids, idsPerCall: 40 })
    expect(jobs).toEqual(ids.map(() => jobs[0]))
    expect(jobs[0]).toEqual(await readJobAlone(settledJobId))
    // The refused call, then one per half (20 settled jobs return ~17 KB).
    expect(proxy.requests()).toBe(3)
  })

  test('a transport failure is not split: it reaches the caller after one request', async () => {
    const { counted, proxy } = await countingClient({ faultRate: 1 })
    const error = await readJobs(counted, { escrow, ids: idsBelow(nextJobId).slice(0, 20) }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Error)
    let cause: unknown = error
    while (cause instanceof Error && !(cause instanceof HttpRequestError)) cause = cause.cause
    expect((cause as HttpRequestError).status).toBe(500)
    expect(proxy.requests()).toBe(1)
  })
})
