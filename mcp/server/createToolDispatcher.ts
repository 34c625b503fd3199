import { ErrorCode, McpError, type CallToolRequest, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { zodToJsonSchema } from 'zod-to-json-schema'
import type { MarketTool, ToolCallExtra } from '../tools/defineTool.ts'
import { createOutputCheck, type OutputCheck } from './createOutputCheck.ts'
import { describeZodIssues } from './describeZodIssues.ts'

export type CreateToolDispatcherParameters<context> = {
  tools: readonly MarketTool<context>[]
}

/** What `tools/list` and `tools/call` answer, prepared once per process and shared by every request. */
export type ToolDispatcher = {
  /** The `tools/list` entries, JSON Schemas included. */
  tools: readonly Tool[]
  call: (params: CallToolRequest['params'], extra: ToolCallExtra) => Promise<CallToolResult>
  /** Resolves once no call is running (a closing stdio server waits for `run` to say which job it leaves). */
  idle: () => Promise<void>
}

export type CreateToolDispatcherReturnType = ToolDispatcher

type PreparedTool<context> = { tool: MarketTool<context>; checkOutput: OutputCheck }

/**
 * The tools of a server over a context, answering as the SDK's `McpServer` does (same listing,
 * same argument and output checks, same error results), but with everything that depends only on
 * the tools built once: the hosted server is stateless and builds a protocol server per request,
 * and `McpServer` converted the schemas and compiled an Ajv instance every time (~0.5 ms).
 */
export function createToolDispatcher<context extends { log: (message: string) => void }>(
  context: context,
  { tools }: CreateToolDispatcherParameters<context>,
): CreateToolDispatcherReturnType {
  const prepared = new Map<string, PreparedTool<context>>(
    tools.map((tool) => [tool.name, { tool, checkOutput: createOutputCheck(tool.outputSchema) }]),
  )
  const listing: Tool[] = tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
    name,
    title,
    description,
    // The converter and options the SDK's McpServer lists zod 3 schemas with.
    inputSchema: zodToJsonSchema(inputSchema, { strictUnions: true, pipeStrategy: 'input' }) as Tool['inputSchema'],
    annotations,
    execution: { taskSupport: 'forbidden' },
    outputSchema: zodToJsonSchema(outputSchema, { strictUnions: true, pipeStrategy: 'output' }) as Tool['outputSchema'],
  }))
  const running = new Set<Promise<CallToolResult>>()

  const call = async (
    { tool, checkOutput }: PreparedTool<context>,
    args: CallToolRequest['params']['arguments'],
    extra: ToolCallExtra,
  ): Promise<CallToolResult> => {
    try {
      const parsed = tool.inputSchema.safeParse(args ?? {})
      if (!parsed.success) {
        return errorResult(`Input validation error: Invalid arguments for tool ${tool.name}: ${describeZodIssues(parsed.error)}`)
      }
      const result = await tool.call(context, parsed.data, extra)
      if (result.isError) return result
      const problem = checkOutput(result.structuredContent)
      return problem === undefined
        ? result
        : errorResult(`Output validation error: Invalid structured content for tool ${tool.name}: ${problem}`)
    } catch (error) {
      // A schema that throws (the tools catch their own failures): McpServer answers its message.
      return { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true }
    }
  }

  return {
    tools: listing,
    call({ name, arguments: args }, extra) {
      const entry = prepared.get(name)
      if (entry === undefined) return Promise.resolve(errorResult(`Tool ${name} not found`))
      const result = call(entry, args, extra)
      running.add(result)
      void result.finally(() => running.delete(result))
      return result
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running])
    },
  }
}

/** The SDK's wording: an invalid-params `McpError` message, as an `isError` result. */
function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: new McpError(ErrorCode.InvalidParams, message).message }], isError: true }
}
