import { type Address, type Client, type TransactionSerializable, createPublicClient, http, parseEther, stringToBytes } from 'viem'
import { mnemonicToAccount, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { devnetMnemonic } from '../../devnet/seed/seedAccounts.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { CreateJobRejectedError, CreateJobUnconfirmedError } from '../../errors/run.ts'
import { prepareCreateJob } from '../../mcp/run/prepareCreateJob.ts'
import { sendCreateJob } from '../../mcp/run/sendCreateJob.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { type Intercept, type InterceptingRpc, startInterceptingRpc } from './support/startInterceptingRpc.ts'

/** Seed service 1: active, priced 0.001. */
const serviceId = 1n
const price = parseEther('0.001')

let devnet: StartDevnetReturnType
let proxy: InterceptingRpc | undefined
let nextAccount = 24

beforeAll(async () => {
  // Its own devnet: these tests create jobs.
  devnet = await startTestDevnet({ seed: true })
})
afterEach(async () => {
  await proxy?.stop()
  proxy = undefined
})
afterAll(() => devnet?.stop())

/** A fresh funded buyer, a client through a proxy that misbehaves as told, and chain counters. */
async function setup(intercept: Intercept) {
  const hdKey = mnemonicToAccount(devnetMnemonic, { addressIndex: nextAccount++ }).getHdKey().privateKey!
  const account = privateKeyToAccount(`0x${Buffer.from(hdKey).toString('hex')}`)
  proxy = await startInterceptingRpc({ target: devnet.rpcUrl, intercept })
  const client: Client = createPublicClient({ chain: hardhat, transport: http(proxy.url), pollingInterval: 50 })
  const direct = createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })
  const counters = async (address: Address) => ({
    nonce: await direct.getTransactionCount({ address }),
    nextJobId: await direct.readContract({ address: devnet.deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' }),
  })
  const { request } = await prepareCreateJob(client, {
    account,
    escrow: devnet.deployment.escrow,
    serviceId,
    price,
    input: stringToBytes('hello'),
    timeoutSec: 300,
  })
  return { account, client, request, counters: () => counters(account.address) }
}

/** What sendCreateJob takes: the transaction signed by the buyer. */
async function signed(account: PrivateKeyAccount, request: TransactionSerializable) {
  return { buyer: account.address, serializedTransaction: await account.signTransaction(request) }
}

const sends = (request: { method: string }) => request.method === 'eth_sendRawTransaction'

test('default: one job, its id from the receipt', async () => {
  const { account, client, request, counters } = await setup((_, forward) => forward())
  const before = await counters()
  const sent = await sendCreateJob(client, { escrow: devnet.deployment.escrow, ...(await signed(account, request)) })
  expect(sent.jobId).toBe(before.nextJobId)
  expect(await counters()).toEqual({ nonce: before.nonce + 1, nextJobId: before.nextJobId + 1n })
})

describe('never two jobs for one call', () => {
  test('every answer to the send is lost: the job is looked up, not sent again', async () => {
    const { account, client, request, counters } = await setup(async (rpc, forward) => {
      if (!sends(rpc)) return forward()
      await forward()
      return 'drop'
    })
    const before = await counters()
    const sent = await sendCreateJob(client, { escrow: devnet.deployment.escrow, ...(await signed(account, request)) })
    expect(sent.jobId).toBe(before.nextJobId)
    expect(await counters()).toEqual({ nonce: before.nonce + 1, nextJobId: before.nextJobId + 1n })
  })

  test('the node takes the transaction but answers with an error: still the one job', async () => {
    // What a load balancer that re-submitted the bytes to a second node passes back.
    const { account, client, request, counters } = await setup(async (rpc, forward) => {
      if (!sends(rpc)) return forward()
      await forward()
      return { jsonrpc: '2.0', id: rpc.id, error: { code: -32000, message: 'nonce too low' } }
    })
    const before = await counters()
    const sent = await sendCreateJob(client, { escrow: devnet.deployment.escrow, ...(await signed(account, request)) })
    expect(sent.jobId).toBe(before.nextJobId)
    expect(await counters()).toEqual({ nonce: before.nonce + 1, nextJobId: before.nextJobId + 1n })
  })

  test("the receipt never comes: the job is found from the buyer's JobCreated log", async () => {
    const { account, client, request, counters } = await setup(async (rpc, forward) =>
      rpc.method === 'eth_getTransactionReceipt' ? { jsonrpc: '2.0', id: rpc.id, result: null } : forward(),
    )
    const before = await counters()
    const sent = await sendCreateJob(client, {
      escrow: devnet.deployment.escrow,
      ...(await signed(account, request)),
      receiptTimeoutMs: 1_000,
    })
    expect(sent.jobId).toBe(before.nextJobId)
    expect(await counters()).toEqual({ nonce: before.nonce + 1, nextJobId: before.nextJobId + 1n })
  })

  test('nothing can be established: an error naming the hash, and no second send', async () => {
    let sendCount = 0
    const { account, client, request, counters } = await setup(async (rpc, forward) => {
      if (sends(rpc)) {
        sendCount += 1
        return 'drop'
      }
      return rpc.method === 'eth_getTransactionReceipt' ? { jsonrpc: '2.0', id: rpc.id, result: null } : forward()
    })
    const before = await counters()
    const error = await sendCreateJob(client, {
      escrow: devnet.deployment.escrow,
      ...(await signed(account, request)),
      receiptTimeoutMs: 1_000,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(CreateJobUnconfirmedError)
    expect((error as Error).message).toMatch(/^The createJob transaction "0x[0-9a-f]{64}" was sent but its receipt could not be read\. Running the same service and prompt again sends this same signed transaction again, never a second payment\.$/)
    expect(sendCount).toBe(1)
    expect(await counters()).toEqual(before)
  })
})

test('the node refuses the transaction: nothing spent, the reason given', async () => {
  const { account, client, request, counters } = await setup((_, forward) => forward())
  const before = await counters()
  // Signed for a chain the node does not serve: refused outright.
  const error = await sendCreateJob(client, {
    escrow: devnet.deployment.escrow,
    ...(await signed(account, { ...request, chainId: 1 })),
  }).catch((error: unknown) => error)
  expect(error).toBeInstanceOf(CreateJobRejectedError)
  expect((error as Error).message).toMatch(/^The node refused the createJob transaction \(.+\)\. Nothing was spent\.$/)
  expect(await counters()).toEqual(before)
})
