import { type Address, type Hash, type Hex, type TransactionReceipt, toHex } from 'viem'
import { getBlock, getBlockTransactionCount, getTransactionCount, getTransactionReceipt, mine } from 'viem/actions'
import { BenchSetupError } from '../errors/bench.ts'
import type { BenchClients } from './createBenchClients.ts'

/** A transaction for one of the node's own accounts; the node signs it. No `to`: a contract creation. */
export type BenchTransaction = { from: Address; to: Address | undefined; data: Hex; value?: bigint; gas: bigint }

export type SendInBlocksParameters<item> = {
  items: readonly item[]
  /** Turns an item into its transaction; may be slow (it may sign): the next chunk is built while the node mines. */
  build: (item: item) => BenchTransaction | Promise<BenchTransaction>
  /**
   * Transactions per mined block: they must fit its 30M gas at their gas limits. Kept small:
   * larger blocks (block gas limit raised) did not make the node faster: 4 blocks of 30 createJob
   * batches took twice the node CPU of 60 blocks of 2, and its answer to `evm_mine` carries every
   * transaction's trace.
   */
  perBlock?: number
}

export type SendInBlocksReturnType = {
  transactions: number
  blocks: number
  /** In item order, every one checked successful. */
  receipts: TransactionReceipt[]
}

export type TransactionSender = {
  /** Sends every item's transaction with automine off, mining one block per chunk; resolves once all are mined. */
  sendInBlocks: <item>(parameters: SendInBlocksParameters<item>) => Promise<SendInBlocksReturnType>
}

/**
 * Receipts read per JSON-RPC batch: a settling transaction's receipt carries 48 logs with their
 * attestations (about 52 KB), and 200 of them passed viem's 10 MB cap on an answer at 100,000 jobs.
 */
const receiptPage = 50

/**
 * Sends many transactions fast: explicit nonces and gas limits (no per-transaction estimate or
 * nonce lookup), each chunk as one JSON-RPC batch of `eth_sendTransaction`, then one `evm_mine`.
 */
export function createTransactionSender(clients: BenchClients): TransactionSender {
  const nonces = new Map<Address, number>()
  const maxPriorityFeePerGas = 1_000_000_000n
  let maxFeePerGas: bigint | undefined

  const send = async (transactions: readonly BenchTransaction[]): Promise<Hash[]> => {
    if (maxFeePerGas === undefined) {
      // Blocks under the gas target only lower the base fee, so twice today's covers the run.
      const latest = await getBlock(clients.public)
      maxFeePerGas = (latest.baseFeePerGas ?? maxPriorityFeePerGas) * 2n + maxPriorityFeePerGas
    }
    const newSenders = [...new Set(transactions.map(({ from }) => from))].filter((from) => !nonces.has(from))
    const counts = await Promise.all(
      newSenders.map((address) => getTransactionCount(clients.public, { address, blockTag: 'pending' })),
    )
    newSenders.forEach((address, index) => nonces.set(address, counts[index] as number))
    const fee = maxFeePerGas
    return Promise.all(
      transactions.map(({ from, to, data, value = 0n, gas }) => {
        const nonce = nonces.get(from) as number
        nonces.set(from, nonce + 1)
        return clients.wallet.request({
          method: 'eth_sendTransaction',
          params: [
            {
              from,
              to,
              data,
              value: toHex(value),
              gas: toHex(gas),
              nonce: toHex(nonce),
              maxFeePerGas: toHex(fee),
              maxPriorityFeePerGas: toHex(maxPriorityFeePerGas),
            },
          ],
        })
      }),
    )
  }

  return {
    async sendInBlocks({ items, build, perBlock = 30 }) {
      const buildChunk = (start: number): Promise<BenchTransaction[]> =>
        Promise.all(items.slice(start, start + perBlock).map((item) => build(item)))
      let blocks = 0
      const hashes: Hash[] = []
      let mining: Promise<void> = Promise.resolve()
      let next = items.length > 0 ? buildChunk(0) : undefined
      for (let start = 0; next !== undefined; start += perBlock) {
        const chunk = await next
        next = start + perBlock < items.length ? buildChunk(start + perBlock) : undefined
        await mining
        hashes.push(...(await send(chunk)))
        mining = mine(clients.test, { blocks: 1 })
        blocks += 1
      }
      await mining
      // A chunk that arrived while its predecessor was being mined may still wait in the pool.
      while ((await getBlockTransactionCount(clients.public, { blockTag: 'pending' })) > 0) {
        await mine(clients.test, { blocks: 1 })
        blocks += 1
      }
      const receipts: TransactionReceipt[] = []
      for (let start = 0; start < hashes.length; start += receiptPage) {
        const page = hashes.slice(start, start + receiptPage)
        receipts.push(...(await Promise.all(page.map((hash) => getTransactionReceipt(clients.public, { hash })))))
      }
      const failed = receipts.find((receipt) => receipt.status !== 'success')
      if (failed !== undefined) throw new BenchSetupError(`Transaction ${failed.transactionHash} reverted.`)
      return { transactions: items.length, blocks, receipts }
    },
  }
}
