import type { NodeStall } from '../../chain/rpc/createNodeStallWatch.ts'
import type { Health } from '../../contract/health.ts'

export type ToHealthParameters = Omit<Health, 'lastIndexedBlock' | 'headBlock' | 'selfCheck' | 'stalledNodes'> & {
  lastIndexedBlock: bigint
  headBlock: bigint
  selfCheck: Omit<Health['selfCheck'], 'lastRunAt'> & { lastRunAt: number | undefined }
  stalledNodes: readonly NodeStall[]
  /** Epoch milliseconds, for how long each stalled node has held its request. */
  now: number
}

/** The health record: block numbers become decimal strings, the self-check's time unix seconds, a stall its wait in ms. */
export function toHealth(parameters: ToHealthParameters): Health {
  const { lastIndexedBlock, headBlock } = parameters
  return {
    ok: parameters.ok,
    uptimeSec: parameters.uptimeSec,
    lastIndexedBlock: lastIndexedBlock.toString(),
    counters: parameters.counters,
    headBlock: headBlock.toString(),
    lagBlocks: parameters.lagBlocks,
    syncing: parameters.syncing,
    chainId: parameters.chainId,
    network: parameters.network,
    newHeads: parameters.newHeads,
    problems: parameters.problems,
    selfCheck: {
      ...parameters.selfCheck,
      lastRunAt: parameters.selfCheck.lastRunAt === undefined ? null : Math.floor(parameters.selfCheck.lastRunAt / 1000).toString(),
    },
    stalledNodes: parameters.stalledNodes.map(({ url, methods, since, timedOut }) => ({
      url,
      methods: [...methods],
      waitingMs: Math.max(0, Math.round(parameters.now - since)),
      timedOut,
    })),
  }
}
