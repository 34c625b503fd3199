import type { Address, Client } from 'viem'
import { getChainId, getCode } from 'viem/actions'
import { redactUrl } from '../../config/redactUrl.ts'
import { ContractNotDeployedError, NodeUnreachableError, WrongChainError } from '../../errors/chain.ts'

export type CheckNodeParameters = {
  /** The node's URL, for messages (printed without credentials). */
  url: string
  chainId: number
  contracts: Record<string, Address>
  /** How long an unreachable node is waited for (default 30,000 ms): a node starting up is fine. */
  waitMs?: number
  retryDelayMs?: number
}

/**
 * What the indexer checks once before it starts, so that a misconfiguration is one clear error at
 * start-up instead of an indexer that polls forever or serves an empty market: the node answers
 * (retried up to `waitMs`), serves `chainId`, and holds code at each contract address.
 */
export async function checkNode(
  client: Client,
  { url, chainId, contracts, waitMs = 30_000, retryDelayMs = 500 }: CheckNodeParameters,
): Promise<void> {
  const shown = redactUrl(url)
  const deadline = Date.now() + waitMs
  let actual: number
  for (;;) {
    try {
      actual = await getChainId(client)
      break
    } catch (cause) {
      if (Date.now() + retryDelayMs > deadline) {
        throw new NodeUnreachableError({ url: shown, waitedMs: waitMs, reason: describeCause(cause), cause })
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs))
    }
  }
  if (actual !== chainId) throw new WrongChainError({ url: shown, expected: chainId, actual })
  const entries = Object.entries(contracts)
  const codes = await Promise.all(entries.map(([, address]) => getCode(client, { address })))
  for (const [index, code] of codes.entries()) {
    const [contract, address] = entries[index] as [string, Address]
    if (code === undefined || code === '0x') throw new ContractNotDeployedError({ url: shown, contract, address })
  }
}

/** The innermost reason of a failed request, in words (a refused connection, a DNS failure, an HTTP status). */
function describeCause(error: unknown): string {
  let current: unknown = error
  let text = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error)
  let status: unknown
  while (current instanceof Error) {
    status ??= (current as { status?: unknown }).status
    if (current.cause === undefined) break
    current = current.cause
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code
      text = typeof code === 'string' ? `${current.message} (${code})` : current.message
    }
  }
  const line = text.split('\n')[0]?.replace(/\.$/, '') ?? text
  return typeof status === 'number' ? `${line} (HTTP ${status})` : line
}
