import { hexToBigInt, isHex, type EIP1193RequestFn, type Transport } from 'viem'

export type RpcCall = {
  method: string
  ok: boolean
  seconds: number
}

export type RpcObserver = {
  /** The transport with every JSON-RPC call reported (one per call, batched or not). */
  wrap: <transport extends Transport>(transport: transport) => transport
  /** Called after every call, answered or failed. */
  onCall: (listener: (call: RpcCall) => void) => void
  /**
   * The latest head the node announced (an answered `eth_getBlockByNumber("latest")` or `eth_blockNumber`): it also
   * sees the heads a long scan asks for again and goes on to, which the store learns only when the poll ends.
   */
  readonly latestHead: bigint | undefined
  /** The lowest `fromBlock` of an `eth_getLogs`: where the back-fill started. */
  readonly firstLogsBlock: bigint | undefined
}

/**
 * Watches the indexer's RPC traffic at the transport, where its client is created, so the indexer
 * itself needs no counting code: methods, outcomes and latencies for the metrics, and the head
 * and start block for the back-fill progress.
 */
export function createRpcObserver(): RpcObserver {
  const listeners: ((call: RpcCall) => void)[] = []
  let latestHead: bigint | undefined
  let firstLogsBlock: bigint | undefined

  const seen = (method: string, params: unknown, result: unknown): void => {
    if (method === 'eth_getBlockByNumber' && Array.isArray(params) && params[0] === 'latest') {
      const number = (result as { number?: unknown } | null)?.number
      if (typeof number === 'string' && isHex(number)) latestHead = hexToBigInt(number)
    } else if (method === 'eth_blockNumber') {
      // A long back-fill asks for the head again as it goes (see scanRange).
      if (typeof result === 'string' && isHex(result)) latestHead = hexToBigInt(result)
    } else if (method === 'eth_getLogs' && Array.isArray(params)) {
      const from = (params[0] as { fromBlock?: unknown } | undefined)?.fromBlock
      if (typeof from === 'string' && isHex(from)) {
        const block = hexToBigInt(from)
        if (firstLogsBlock === undefined || block < firstLogsBlock) firstLogsBlock = block
      }
    }
  }

  const report = (call: RpcCall): void => {
    for (const listener of listeners) listener(call)
  }

  return {
    wrap: <transport extends Transport>(transport: transport) =>
      ((options: Parameters<Transport>[0]) => {
        const inner = transport(options)
        const request = (async (args, requestOptions) => {
          const started = performance.now()
          try {
            const result = await inner.request(args, requestOptions)
            report({ method: args.method, ok: true, seconds: (performance.now() - started) / 1000 })
            seen(args.method, args.params, result)
            return result
          } catch (error) {
            report({ method: args.method, ok: false, seconds: (performance.now() - started) / 1000 })
            throw error
          }
        }) as EIP1193RequestFn
        return { ...inner, request }
      }) as transport,
    onCall: (listener) => {
      listeners.push(listener)
    },
    get latestHead() {
      return latestHead
    },
    get firstLogsBlock() {
      return firstLogsBlock
    },
  }
}
