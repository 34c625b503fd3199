import { HttpRequestError, RpcRequestError } from 'viem'

export type CreateStatusCheckParameters = {
  /** The node as messages name it (without credentials). */
  url: string
  /** Bytes of a refusal's body read for the node's words (default 16 KiB); the rest is not waited for. */
  maxBodyBytes?: number
}

/** viem's `http({ onFetchResponse })`: throws for an answer whose status is not 2xx. */
export type StatusCheck = (response: Response) => Promise<void>
export type CreateStatusCheckReturnType = StatusCheck

/**
 * Turns every non-2xx answer into an HttpRequestError with its status, its headers (`Retry-After`)
 * and the node's words, before viem reads the body. viem 2.57 (utils/rpc/http.ts) hands a non-2xx
 * body holding one JSON-RPC error object back as the answer, even to a batch: its batch scheduler
 * then reads that object as an array (`Cannot read properties of undefined (reading 'error')`), and
 * a single call's error loses the status and headers that say "rate limited, wait 1 s". The node's
 * JSON-RPC error, when it sent one, is the cause (an RpcRequestError), so its code and message are
 * still read (classifyRpcError, readLogRangeHint) and a revert keeps its data.
 */
export function createStatusCheck({ url, maxBodyBytes = 16_384 }: CreateStatusCheckParameters): CreateStatusCheckReturnType {
  return async (response) => {
    if (response.ok) return
    const text = await readStart(response, maxBodyBytes)
    const rpcError = readRpcError(text)
    throw new HttpRequestError({
      url,
      status: response.status,
      headers: response.headers,
      details: rpcError?.message ?? (text.trim().slice(0, 500) || response.statusText),
      cause: rpcError === undefined ? undefined : new RpcRequestError({ body: {}, error: rpcError, url }),
    })
  }
}

/** The first `maxBytes` of the body as text; a body sent on and on is cancelled there. */
async function readStart(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < maxBytes) {
      const chunk = await reader.read()
      if (chunk.done) break
      chunks.push(chunk.value)
      size += chunk.value.byteLength
    }
  } catch {
    // A body cut short still says what its start said.
  } finally {
    if (size >= maxBytes) await reader.cancel().catch(() => undefined)
  }
  return Buffer.concat(chunks).toString('utf8', 0, Math.min(size, maxBytes))
}

type JsonRpcErrorObject = { code: number; message: string; data?: unknown }

/** The JSON-RPC error of a body holding one (an object, or the first error of an array), if it does. */
function readRpcError(text: string): JsonRpcErrorObject | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  const answers: unknown[] = Array.isArray(parsed) ? parsed : [parsed]
  for (const answer of answers) {
    const error = (answer as { error?: Partial<JsonRpcErrorObject> } | null)?.error
    if (typeof error?.code === 'number' && typeof error.message === 'string') return error as JsonRpcErrorObject
  }
  return undefined
}
