import { createPublicClient, zeroAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { httpWithDeadline } from '../../chain/rpc/httpWithDeadline.ts'
import { RpcDeadlineError } from '../../errors/chain.ts'
import { reclaimExpiredJob } from '../../mcp/run/reclaimExpiredJob.ts'
import { waitForJobOutcome } from '../../mcp/run/waitForJobOutcome.ts'
import { createChainOracle } from '../support/createChainOracle.ts'
import { startRpcStub, type RpcStub } from '../rpc/support/startRpcStub.ts'
import { startStallingProxy, type StallingProxy } from '../support/startStallingProxy.ts'

let node: RpcStub
let proxy: StallingProxy

beforeAll(async () => {
  node = await startRpcStub()
  proxy = await startStallingProxy({ target: node.url })
})

afterAll(async () => {
  await proxy?.stop()
  await node?.close()
})

let clients = 0

/**
 * The proxy holds every request for good, so a bound of a deadline plus this slack says the
 * deadline ended it rather than nothing; the slack is a loaded host's, not a speed target.
 */
const slackMs = 10_000
/** A deadline far past a cancellation at 200 ms: a wait ended before half of it was ended by the cancellation. */
const longDeadlineMs = 60_000

/**
 * A client of run's kind (createToolContext) on the stalling node, and the chain source over it.
 * Each on a URL of its own: viem queues batched calls per URL for the whole process, and a queue is
 * sent by whichever client's transport flushes it (with that transport's deadline).
 */
function clientOf({ timeoutMs }: { timeoutMs: number }) {
  clients += 1
  const client = createPublicClient({ transport: httpWithDeadline(`${proxy.url}/client-${clients}`, { batch: true, retryCount: 0, timeoutMs }) })
  return { client, chain: createChainOracle(client, { registry: zeroAddress, escrow: zeroAddress, chainId: 31337, tee: undefined }) }
}

/** How the promise settled and after how many ms. */
async function settle(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const startedAt = performance.now()
  const error = await promise.then(() => undefined, (reason: unknown) => reason)
  return { error, ms: performance.now() - startedAt }
}

describe('waitForJobOutcome against a node that never answers', () => {
  test('cancelling interrupts a poll whose requests are in flight', async () => {
    proxy.stall({ kind: 'never', answers: 1_000 })
    const { client, chain } = clientOf({ timeoutMs: longDeadlineMs })
    const cancel = new AbortController()
    setTimeout(() => cancel.abort(new Error('cancelled by the caller')), 200)
    const { error, ms } = await settle(waitForJobOutcome(client, { chain, jobId: 1n, pollIntervalMs: 100, giveUpAt: Date.now() + 2 * longDeadlineMs, signal: cancel.signal }))
    expect(error).toEqual(new Error('cancelled by the caller'))
    expect(ms).toBeLessThan(longDeadlineMs / 2)
  })

  test('the wait keeps its own limit: past giveUpAt, the next failed poll ends it', async () => {
    proxy.stall({ kind: 'halfBody', answers: 1_000 })
    const { client, chain } = clientOf({ timeoutMs: 300 })
    const { error, ms } = await settle(waitForJobOutcome(client, { chain, jobId: 1n, pollIntervalMs: 100, giveUpAt: Date.now() + 1_000 }))
    expect(String(error)).toContain('did not finish its answer')
    expect(ms).toBeLessThan(1_000 + 2 * 300 + slackMs)
  })
})

test('reclaimExpiredJob: cancelling interrupts the refund while the node holds it', async () => {
  proxy.stall({ kind: 'never', answers: 1_000 })
  const { client } = clientOf({ timeoutMs: longDeadlineMs })
  const cancel = new AbortController()
  setTimeout(() => cancel.abort(new Error('cancelled by the caller')), 200)
  const account = privateKeyToAccount(`0x${'11'.repeat(32)}`)
  const { error, ms } = await settle(reclaimExpiredJob(client, { account, escrow: zeroAddress, jobId: 1n, signal: cancel.signal }))
  expect(error).toEqual(new Error('cancelled by the caller'))
  expect(ms).toBeLessThan(longDeadlineMs / 2)
})

test('a request of run\'s client ends at its deadline with the node named', async () => {
  // Every answer stalled, not just the first: a loaded host can split getJob's calls over two batches.
  proxy.stall({ kind: 'halfBody', answers: 1_000 })
  const { chain } = clientOf({ timeoutMs: 300 })
  const { error, ms } = await settle(chain.getJob({ jobId: 1n }))
  expect(String(error)).toContain(`The RPC node at "${proxy.url}/client-${clients}" did not finish its answer`)
  let link: unknown = error
  while (link instanceof Error && !(link instanceof RpcDeadlineError)) link = link.cause
  expect(link).toBeInstanceOf(RpcDeadlineError)
  expect(ms).toBeLessThan(300 + slackMs)
})
