import { type Address, type Hex, toHex } from 'viem'
import { getBlock, getBlockTransactionCount, getTransactionCount, mine } from 'viem/actions'
import type { BenchClients } from './createBenchClients.ts'

/** A transaction for one of the node's own accounts; the node signs it. */
export type BenchTransaction = { from: Address; to: Address; data: Hex; value?: bigint; gas: bigint }

export type SendInBlocksParameters<item> = {
  items: readonly item[]
  /** Turns an item into its transaction; may be slow (it may sign): the next chunk is built while the node mines. */
  build: (item: item) => BenchTransaction | Promise<BenchTransaction>
  /**
   * Transactions per mined block. Small on purpose: with automine off the node's memory grew
   * with the square of the pending pool (300 a block: ~1 MB per transaction, the node was
   * OOM-killed at 24 GB; 30 a block: ~75 KB per transaction, and just as fast). 30 also fits
   * the default 30M block gas at every limit used here.
   */
  perBlock?: number
}

export type SendInBlocksReturnType = { transactions: number; blocks: number }

export type TransactionSender = {
  /** Sends every item's transaction with automine off, mining one block per chunk; resolves once all are mined. */
  sendInBlocks: <item>(parameters: SendInBlocksParameters<item>) => Promise<SendInBlocksReturnType>
}

/**
 * Sends many transactions fast: explicit nonces and gas limits (no per-transaction estimate or
 * nonce lookup), each chunk as one JSON-RPC batch of `eth_sendTransaction`, then one `evm_mine`.
 */
export function createTransactionSender(clients: BenchClients): TransactionSender {
  const nonces = new Map<Address, number>()
  const maxPriorityFeePerGas = 1_000_000_000n
  let maxFeePerGas: bigint | undefined

  const send = async (transactions: readonly BenchTransaction[]): Promise<void> => {
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
    await Promise.all(
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
      let mining: Promise<void> = Promise.resolve()
      let next = items.length > 0 ? buildChunk(0) : undefined
      for (let start = 0; next !== undefined; start += perBlock) {
        const chunk = await next
        next = start + perBlock < items.length ? buildChunk(start + perBlock) : undefined
        await mining
        await send(chunk)
        mining = mine(clients.test, { blocks: 1 })
        blocks += 1
      }
      await mining
      // A chunk that arrived while its predecessor was being mined may still wait in the pool.
      while ((await getBlockTransactionCount(clients.public, { blockTag: 'pending' })) > 0) {
        await mine(clients.test, { blocks: 1 })
        blocks += 1
      }
      return { transactions: items.length, blocks }
    },
  }
}
