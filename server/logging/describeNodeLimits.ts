import type { ObservedIndexer } from '../metrics/ObservedIndexer.ts'

export type NodeLimitsDescription = {
  /** Blocks per eth_getLogs now. */
  logRange: number
  /** The widest range the node said it accepts, once it said so. */
  logRangeLimit: number | undefined
  /** Each node's calls per second in force (null while unlimited), and its rate-limited answers so far. */
  nodes: { url: string; callsPerSecond: number | null; rateLimitedAnswers: number }[]
}

/** The node limits in force, as a back-fill progress line shows them. */
export function describeNodeLimits({ logWindow, rpcLimits }: Pick<ObservedIndexer, 'logWindow' | 'rpcLimits'>): NodeLimitsDescription {
  const limit = logWindow.limit()
  return {
    logRange: Number(logWindow.size()),
    logRangeLimit: limit === undefined ? undefined : Number(limit),
    nodes: rpcLimits().map(({ url, rateInForce, rateLimitedAnswers }) => ({ url, callsPerSecond: rateInForce, rateLimitedAnswers })),
  }
}
