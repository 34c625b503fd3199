import type { Indexer } from '../indexer/createIndexer.ts'
import type { RpcNodeLimits } from '../indexer/createIndexerTransport.ts'

/** What the gauges read of an indexer: its store, its eth_getLogs window and its nodes' rate limits. */
export type ObservedIndexer = Pick<Indexer, 'store' | 'logWindow'> & { rpcLimits: () => RpcNodeLimits[] }
