import type { McpHealth } from '../../contract/mcp.ts'
import type { CacheChainIdReturnType } from './cacheChainId.ts'

export type GetMcpHealthParameters = {
  service: string
  network: string
  /** The configured chain id: the answer when the chain cannot be asked. */
  chainId: number
  tools: readonly string[]
}

export type GetMcpHealthReturnType = McpHealth

/** Healthy when the chain the tools read answers (as read by cacheChainId), and is the configured one. */
export async function getMcpHealth(
  readChainId: CacheChainIdReturnType,
  { service, network, chainId, tools }: GetMcpHealthParameters,
): Promise<GetMcpHealthReturnType> {
  const reported = await readChainId()
  return { ok: reported === chainId, service, network, chainId: reported ?? chainId, tools: [...tools] }
}
