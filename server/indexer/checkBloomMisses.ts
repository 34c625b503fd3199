import { toEventSelector, type Client, type Hash, type RpcLog } from 'viem'
import type { IndexedDeployment } from '../../config/deployment.ts'
import { IncompleteLogsError } from '../../errors/chain.ts'
import { findBloomMisses } from './findBloomMisses.ts'
import { arbiterJobEvents, escrowEvents, registryEvents } from './marketEvents.ts'
import type { MarketLog } from './readWindow.ts'

const sourceSelectors = {
  registry: registryEvents.map((event) => toEventSelector(event)),
  escrow: escrowEvents.map((event) => toEventSelector(event)),
  arbiter: arbiterJobEvents.map((event) => toEventSelector(event)),
}

/**
 * Asks every block whose bloom may hold a log the answer lacks for its logs by hash; one more log
 * there than in the answer fails the window.
 */
export async function checkBloomMisses(
  client: Client,
  {
    deployment: { registry, escrow, arbiter },
    fromBlock,
    toBlock,
    headers,
    logs,
  }: {
    deployment: IndexedDeployment
    fromBlock: bigint
    toBlock: bigint
    headers: readonly { number: bigint; hash: Hash; logsBloom: `0x${string}` | null }[]
    logs: readonly MarketLog[]
  },
): Promise<void> {
  const misses = findBloomMisses({
    headers,
    logs,
    sources: [
      { address: registry, selectors: sourceSelectors.registry },
      { address: escrow, selectors: sourceSelectors.escrow },
      { address: arbiter, selectors: sourceSelectors.arbiter },
    ],
    fromBlock,
    toBlock,
  })
  if (misses.length === 0) return
  const hashes = new Map(headers.map((header) => [header.number, header.hash]))
  // Every log of the block, unfiltered: a node that answers none for a block whose bloom is not
  // empty is lying (Ponder's check), and our logs among them are counted here, not asked for again.
  const byHash = await Promise.all(
    misses.map(
      (blockHash) =>
        client.request({ method: 'eth_getLogs', params: [{ blockHash: hashes.get(blockHash) as Hash }] }) as Promise<RpcLog[]>,
    ),
  )
  const ours = new Map([
    [registry.toLowerCase(), new Set<string>(sourceSelectors.registry)],
    [escrow.toLowerCase(), new Set<string>(sourceSelectors.escrow)],
    [arbiter.toLowerCase(), new Set<string>(sourceSelectors.arbiter)],
  ])
  for (const [index, blockLogs] of byHash.entries()) {
    const blockNumber = misses[index] as bigint
    if (blockLogs.length === 0) {
      throw new IncompleteLogsError({ fromBlock, toBlock, reason: `block ${blockNumber} has a logsBloom, but the node answers no logs for it` })
    }
    const answered = new Set(logs.filter((log) => log.blockNumber === blockNumber).map((log) => log.logIndex))
    const missing = blockLogs.filter(
      (log) =>
        ours.get(log.address.toLowerCase())?.has(log.topics[0] ?? '') === true &&
        log.logIndex !== null &&
        !answered.has(Number(log.logIndex)),
    )
    if (missing.length > 0) {
      throw new IncompleteLogsError({
        fromBlock,
        toBlock,
        reason: `block ${blockNumber} holds ${missing.length} more of our logs (first in transaction ${missing[0]?.transactionHash})`,
      })
    }
  }
}

