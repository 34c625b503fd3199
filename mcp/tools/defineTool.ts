import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import type { AnyZodObject, z } from 'zod'
import { escapeControlCharacters } from '../../contract/escapeControlCharacters.ts'
import { toMirroredResult } from './toMirroredResult.ts'
import { toToolErrorResult } from './toToolErrorResult.ts'

/** Progress of a long call, as MCP `notifications/progress` carries it. */
export type ToolProgress = { progress: number; total?: number; message?: string }

/** The person's answer when asked through MCP elicitation: only `accept` lets a call go on. */
export type ConfirmationAnswer = 'accept' | 'decline' | 'cancel'

/** What the protocol gives one call besides its arguments. */
export type ToolCallExtra = {
  /** Aborted when the client cancels the call or goes away. */
  signal: AbortSignal
  /** Sends a progress notification; undefined when the client sent no progress token. */
  reportProgress?: ((progress: ToolProgress) => Promise<void>) | undefined
  /**
   * Shows the person (not the agent) the message and asks them to accept or decline, through MCP
   * elicitation; undefined when the client does not support elicitation.
   */
  confirm?: ((message: string) => Promise<ConfirmationAnswer>) | undefined
}

export type ToolDefinition<context, input extends AnyZodObject, output extends AnyZodObject> = {
  name: string
  title: string
  /** Written for an AI agent: what the tool returns and when to use it. */
  description: string
  inputSchema: input
  /** A plain zod object: the JSON Schema listed for the tool, and what `structuredContent` is checked against. */
  outputSchema: output
  annotations: ToolAnnotations
  /**
   * One answer for every caller while its fields are the same values and objects (list_services
   * over the indexer's store: the same list until a service changes): the last answer, already
   * checked and serialized, is handed out again instead of a copy of it.
   */
  reusesLastAnswer?: boolean
  handler: (context: context, args: z.output<input>, extra: ToolCallExtra) => Promise<z.input<output>>
  /**
   * A line for the agent beside the answer (a second text item, outside `structuredContent`, so
   * the answer keeps its shape); undefined adds none. What it reads must not fail the call.
   */
  note?: (context: context, response: z.input<output>) => Promise<string | undefined>
}

/** A tool as the servers offer it: its listing, and a call on arguments its input schema accepted. */
export type MarketTool<context> = {
  name: string
  title: string
  description: string
  inputSchema: AnyZodObject
  outputSchema: AnyZodObject
  annotations: ToolAnnotations
  call: (context: context & { log: (message: string) => void }, args: unknown, extra: ToolCallExtra) => Promise<CallToolResult>
}

/**
 * Defines a tool once. The response object goes out twice, as the document's
 * `content[0].text` (its JSON) and as `structuredContent`; a thrown error becomes `isError`.
 */
export function defineTool<context, input extends AnyZodObject, output extends AnyZodObject>(
  definition: ToolDefinition<context, input, output>,
): MarketTool<context> {
  const { handler, note, reusesLastAnswer = false, ...listing } = definition
  let last: { response: Record<string, unknown>; result: CallToolResult } | undefined
  const answer = (response: Record<string, unknown>): CallToolResult => {
    if (!reusesLastAnswer) return toMirroredResult(response)
    if (last === undefined || !sameFields(last.response, response)) last = { response, result: toMirroredResult(response) }
    return last.result
  }
  return {
    ...listing,
    async call(context, args, extra) {
      try {
        // The dispatcher passes only what `inputSchema` parsed, so this is the schema's output type.
        const response = await handler(context, args as z.output<input>, extra)
        const result = answer(response)
        const line = await note?.(context, response).catch(() => undefined)
        return line === undefined ? result : { ...result, content: [...result.content, { type: 'text', text: escapeControlCharacters(line) }] }
      } catch (error) {
        return toToolErrorResult(error, { tool: definition.name, log: context.log })
      }
    },
  }
}

/** Same keys in the same order, each value identical (`===`): the two serialize alike. */
function sameFields(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a)
  const otherKeys = Object.keys(b)
  return keys.length === otherKeys.length && keys.every((key, index) => key === otherKeys[index] && a[key] === b[key])
}
