export type JsonRpcRequest = { jsonrpc: '2.0'; id: unknown; method: string; params?: unknown[] }
export type JsonRpcError = { code: number; message: string; data?: unknown }
export type JsonRpcResponse = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: JsonRpcError }
