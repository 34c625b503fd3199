import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { escapeControlCharacters } from '../../contract/escapeControlCharacters.ts'
import { BaseError } from '../../errors/BaseError.ts'
import { ToolFailedError } from '../../errors/mcp.ts'

export type ToToolErrorResultParameters = {
  tool: string
  log: (message: string) => void
}

/**
 * The one place errors become MCP tool errors (`isError: true`). Our own errors carry a message
 * written for the caller; anything else (an RPC failure, a bug) is logged in full and answered
 * with a generic sentence, so no URL, stack or key material reaches the agent. A message may
 * carry what a seller or its endpoint wrote: its control and bidi characters go out escaped.
 */
export function toToolErrorResult(error: unknown, { tool, log }: ToToolErrorResultParameters): CallToolResult {
  const known = error instanceof BaseError ? error : new ToolFailedError({ tool, cause: error })
  if (known !== error) log(`${tool} failed: ${describe(error)}`)
  return { isError: true, content: [{ type: 'text', text: escapeControlCharacters(known.message) }] }
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error)
}
