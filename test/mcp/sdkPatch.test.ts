import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  InitializeRequestSchema,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCErrorResponseSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  LATEST_PROTOCOL_VERSION,
  McpError,
} from '@modelcontextprotocol/sdk/types.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { afterEach, describe, expect, test, vi } from 'vitest'

// patches/@modelcontextprotocol+sdk+*.patch: the SDK's message guards answer from a cheap look
// at the message before zod, and a closing protocol builds its error only for pending requests.
// These tests pin both: the answers equal the schemas' own, and the costly paths are not taken.

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
}
const toolCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_job', arguments: { jobId: '1' } } }
const result = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{}' }] } }
const error = { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } }
const notification = { jsonrpc: '2.0', method: 'notifications/initialized' }

/** Every kind of message and of junk a guard may be handed. */
const corpus: unknown[] = [
  initialize,
  { ...initialize, params: {} },
  { ...initialize, method: 'Initialize' },
  toolCall,
  { ...toolCall, id: undefined },
  { ...toolCall, id: 1.5 },
  { ...toolCall, extra: true },
  result,
  { ...result, result: undefined },
  { ...result, error: error.error },
  error,
  { ...error, id: undefined },
  { ...error, error: { code: 'x', message: 'bad' } },
  notification,
  Object.create({ jsonrpc: '2.0', id: 2, result: {} }),
  [toolCall],
  [],
  {},
  null,
  undefined,
  'initialize',
  42,
  true,
]

const guards = [
  { name: 'isInitializeRequest', guard: isInitializeRequest, schema: InitializeRequestSchema, own: [initialize] },
  { name: 'isJSONRPCRequest', guard: isJSONRPCRequest, schema: JSONRPCRequestSchema, own: [initialize, toolCall] },
  { name: 'isJSONRPCResultResponse', guard: isJSONRPCResultResponse, schema: JSONRPCResultResponseSchema, own: [result] },
  { name: 'isJSONRPCErrorResponse', guard: isJSONRPCErrorResponse, schema: JSONRPCErrorResponseSchema, own: [error] },
] as const

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the MCP SDK as patched', () => {
  test.each(guards)('$name answers as its schema does, for every message and junk value', ({ guard, schema, own }) => {
    const answers = corpus.map((value) => guard(value))
    const oracle = corpus.map((value) => schema.safeParse(value).success)
    expect(answers).toEqual(oracle)
    for (const message of own) expect(guard(message)).toBe(true)
  })

  test.each(guards)('$name runs no failing parse on a message of another kind', ({ guard, schema, own }) => {
    const parse = vi.spyOn(schema, 'safeParse')
    const others = [initialize, toolCall, result, error, notification].filter((message) => !(own as readonly unknown[]).includes(message))
    for (const message of others) expect(guard(message)).toBe(false)
    expect(parse).not.toHaveBeenCalled()
  })

  test('a protocol server closing with no request pending builds no error; with one pending, the request fails', async () => {
    const fromError = vi.spyOn(McpError, 'fromError')
    const sent: unknown[] = []
    const transport: Transport = {
      start: async () => {},
      send: async (message) => {
        sent.push(message)
      },
      close: async () => {
        transport.onclose?.()
      },
    }
    const idle = new Server({ name: 'test', version: '1' }, { capabilities: {} })
    await idle.connect(transport)
    await idle.close()
    expect(fromError).not.toHaveBeenCalled()

    const waiting = new Server({ name: 'test', version: '1' }, { capabilities: {} })
    await waiting.connect(transport)
    const ping = waiting.ping()
    await vi.waitFor(() => expect(sent).toHaveLength(1))
    await waiting.close()
    await expect(ping).rejects.toThrow('Connection closed')
    expect(fromError).toHaveBeenCalledTimes(1)
  })
})
