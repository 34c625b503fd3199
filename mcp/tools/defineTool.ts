import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import type { AnyZodObject, z } from 'zod'
import { toToolErrorResult } from './toToolErrorResult.ts'

export type ToolDefinition<context, input extends AnyZodObject, output extends AnyZodObject> = {
  name: string
  title: string
  /** Written for an AI agent: what the tool returns and when to use it. */
  description: string
  inputSchema: input
  /** A plain zod object (the SDK derives the JSON Schema and checks `structuredContent`). */
  outputSchema: output
  annotations: ToolAnnotations
  handler: (context: context, args: z.output<input>) => Promise<z.input<output>>
}

/** A tool ready to be added to a server with a given context. */
export type MarketTool<context> = {
  name: string
  register: (server: McpServer, context: context & { log: (message: string) => void }) => void
}

/**
 * Defines a tool once. The response object goes out twice, as the document's
 * `content[0].text` (its JSON) and as `structuredContent`; a thrown error becomes `isError`.
 */
export function defineTool<context, input extends AnyZodObject, output extends AnyZodObject>(
  definition: ToolDefinition<context, input, output>,
): MarketTool<context> {
  const { name, title, description, inputSchema, outputSchema, annotations, handler } = definition
  return {
    name,
    register(server, context) {
      const callback = async (args: z.output<input>): Promise<CallToolResult> => {
        try {
          const result = await handler(context, args)
          return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result }
        } catch (error) {
          return toToolErrorResult(error, { tool: name, log: context.log })
        }
      }
      // The SDK's callback type is conditional on the schema type, which TypeScript cannot resolve
      // for a generic schema; the callback takes exactly the parsed arguments.
      server.registerTool(name, { title, description, inputSchema, outputSchema, annotations }, callback as unknown as ToolCallback<input>)
    },
  }
}
