import type { Client } from 'viem'
import { getChainId } from 'viem/actions'
import type { McpHealth } from '../../contract/mcp.ts'

export type GetMcpHealthParameters = {
  service: string
  network: string
  /** The configured chain id: the answer when the chain cannot be asked. */
  chainId: number
  tools: readonly string[]
  timeoutMs?: number
}

export type GetMcpHealthReturnType = McpHealth

/** Healthy when the chain the tools read answers, and is the configured one. */
export async function getMcpHealth(
  client: Client,
  { service, network, chainId, tools, timeoutMs = 3_000 }: GetMcpHealthParameters,
): Promise<GetMcpHealthReturnType> {
  const reported = await Promise.race([
    getChainId(client).catch(() => null),
    new Promise<null>((resolve) => setTimeout(resolve, timeoutMs, null).unref()),
  ])
  return { ok: reported === chainId, service, network, chainId: reported ?? chainId, tools: [...tools] }
}
