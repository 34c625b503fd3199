import { RpcDeadlineError } from '../../errors/chain.ts'

export type DeadlineFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** How an exchange ended: its whole body read, its deadline passed, or failed otherwise (refused, reset, cancelled). */
export type DeadlineExchangeEnd = 'answered' | 'timeout' | 'failed'

export type CreateDeadlineFetchParameters = {
  /** One deadline for the whole exchange: the request sent, the status and headers, and the last byte of the body. */
  timeoutMs: number
  /** The node for messages, without credentials. */
  node: string
  /** Called as each exchange starts; what it returns is called once, as the exchange ends. */
  onExchange?: ((exchange: { methods: readonly string[] }) => (end: DeadlineExchangeEnd) => void) | undefined
}

/**
 * A `fetch` for viem's `http({ fetchFn, timeout: 0 })` whose deadline stays attached while the body
 * is read. viem's own `timeout` (viem 2.57, utils/rpc/http.ts) races only the `fetch` call, which
 * resolves once the headers are in: a node that sends its status, headers and half a body and then
 * nothing, socket open, holds the caller until undici's body timeout (300 s). Here one signal
 * aborts the exchange at the deadline, before or after the headers, and either way it ends with
 * an RpcDeadlineError (a viem TimeoutError). A caller's own signal (viem's per-request `signal`)
 * still aborts it at once, with the caller's reason.
 */
export function createDeadlineFetch({ timeoutMs, node, onExchange }: CreateDeadlineFetchParameters): DeadlineFetch {
  return async (input, init) => {
    const body = readBody(init?.body)
    const methods = [...new Set([body].flat().map((call) => String(call.method)))]
    const deadline = new AbortController()
    let received: 'nothing' | 'headers' = 'nothing'
    const timer = setTimeout(() => deadline.abort(new RpcDeadlineError({ node, body, methods, timeoutMs, received })), timeoutMs)
    const ended = onExchange?.({ methods })
    let done = false
    const end = (how: DeadlineExchangeEnd): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      ended?.(how)
    }
    // The deadline's error, not the AbortError fetch and the body stream throw for it.
    const failure = (error: unknown): unknown => {
      end(deadline.signal.aborted ? 'timeout' : 'failed')
      return deadline.signal.aborted ? deadline.signal.reason : error
    }
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal
    let response: Response
    try {
      response = await fetch(input, { ...init, signal })
    } catch (error) {
      throw failure(error)
    }
    received = 'headers'
    if (response.body === null) {
      end('answered')
      return response
    }
    const reader = response.body.getReader()
    const guarded = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await reader.read()
          if (!chunk.done) return controller.enqueue(chunk.value)
          end('answered')
          controller.close()
        } catch (error) {
          controller.error(failure(error))
        }
      },
      async cancel(reason) {
        end('failed')
        await reader.cancel(reason)
      },
    })
    return new Response(guarded, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}

type RpcBody = { method?: unknown; [key: string]: unknown }

/** The JSON-RPC request viem sends, for the timeout's message and the stall watch: viem always sends a JSON string. */
function readBody(body: RequestInit['body'] | undefined): RpcBody | RpcBody[] {
  if (typeof body !== 'string') return {}
  try {
    return JSON.parse(body) as RpcBody | RpcBody[]
  } catch {
    return {}
  }
}
