import type { ServerResponse } from 'node:http'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js'
import { isJsonRpcRequest } from './isJsonRpcRequest.ts'
import { keepSseAlive } from './keepSseAlive.ts'
import { sseHeaders, toSseEvent } from './toSseEvent.ts'

export type CreatePostTransportParameters = {
  /** How often a comment line keeps a slow answer's stream alive through proxies (the SDK's 15 s). */
  keepAliveMs?: number | undefined
}

/** A transport for the messages of one POST; the server answers them on the same response. */
export type PostTransport = Transport & {
  /** Hands the POST's messages (see readPostMessages) to the connected server. */
  receive: (messages: readonly JSONRPCMessage[], extra: MessageExtraInfo) => void
}

export type CreatePostTransportReturnType = PostTransport

/**
 * The answering half of the SDK's stateless Streamable HTTP server transport, written straight on
 * Node's response: 202 for notifications alone, else an event stream with one `message` event per
 * message, ended once every request of the POST is answered. The SDK's transport converts each
 * request to a web `Request` and its answer to a `ReadableStream` and back, about half of a
 * `tools/call`'s CPU time. No session, no resumption: each POST stands alone.
 */
export function createPostTransport(
  response: ServerResponse,
  { keepAliveMs }: CreatePostTransportParameters = {},
): CreatePostTransportReturnType {
  const pending = new Set<RequestId>()
  let stopKeepAlive: (() => void) | undefined
  let finished = false

  const finish = (): void => {
    stopKeepAlive?.()
    finished = true
  }
  const writeHead = (): void => {
    if (!response.headersSent) response.writeHead(200, sseHeaders)
  }

  const transport: PostTransport = {
    async start() {},

    async send(message, options) {
      const isResponse = 'result' in message || 'error' in message
      const requestId = isResponse ? message.id : options?.relatedRequestId
      // Without a session there is no standalone stream: a message tied to no request has nowhere to go.
      if (requestId === undefined) return
      if (!pending.has(requestId)) throw new Error(`No connection established for request ID: ${String(requestId)}`)
      if (finished) return
      const event = toSseEvent(JSON.stringify(message))
      if (isResponse) pending.delete(requestId)
      if (pending.size > 0) {
        writeHead()
        response.write(event)
        return
      }
      finish()
      if (!response.headersSent) response.writeHead(200, { ...sseHeaders, 'content-length': Buffer.byteLength(event) })
      response.end(event)
    },

    async close() {
      if (finished) return
      finish()
      if (!response.writableEnded) response.end()
      transport.onclose?.()
    },

    receive(messages, extra) {
      for (const message of messages) if (isJsonRpcRequest(message)) pending.add(message.id)
      if (pending.size === 0) {
        finish()
        response.writeHead(202).end()
      } else {
        stopKeepAlive = keepSseAlive(response, { intervalMs: keepAliveMs })
        // A client that goes away before its answers: the server aborts the handlers on close.
        response.once('close', () => void transport.close())
      }
      for (const message of messages) transport.onmessage?.(message, extra)
    },
  }
  return transport
}
