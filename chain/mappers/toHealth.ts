import type { Health } from '../../contract/health.ts'

export type ToHealthParameters = Omit<Health, 'lastIndexedBlock' | 'headBlock' | 'lagBlocks'> & {
  lastIndexedBlock: bigint
  headBlock: bigint
}

/** The health record: block numbers become decimal strings, the lag a block count. */
export function toHealth(parameters: ToHealthParameters): Health {
  const { lastIndexedBlock, headBlock } = parameters
  return {
    ok: parameters.ok,
    uptimeSec: parameters.uptimeSec,
    lastIndexedBlock: lastIndexedBlock.toString(),
    counters: parameters.counters,
    headBlock: headBlock.toString(),
    lagBlocks: Number(headBlock > lastIndexedBlock ? headBlock - lastIndexedBlock : 0n),
    syncing: parameters.syncing,
    chainId: parameters.chainId,
    network: parameters.network,
    newHeads: parameters.newHeads,
  }
}
