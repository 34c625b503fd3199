import { createPublicClient, defineChain, type Transport } from 'viem'
import type { Config } from '../../config/ConfigSchema.ts'
import type { Logger } from '../../platform/logging/createLogger.ts'
import { createConfiguredTeeCheck } from '../../tee/createConfiguredTeeCheck.ts'
import { createMemoryCollateralStore } from '../../tee/createMemoryCollateralStore.ts'
import type { Database } from '../durable/Database.ts'
import { createDatabaseCollateralStore } from '../durable/createDatabaseCollateralStore.ts'
import { createNodeTransports } from '../indexer/startIndexer.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import type { TeeVerdictWriter } from '../store/StoreWriter.ts'
import { followProviderRecords } from './followProviderRecords.ts'
import { startTeeChecking, type StartTeeCheckingReturnType } from './startTeeChecking.ts'

export type StartServiceTeeCheckingParameters = {
  store: Pick<StoreReader, 'serviceList' | 'teeVerdict'> & TeeVerdictWriter
  /** Where collateral is kept across restarts (a writer's database); undefined: in memory. */
  database: Database | undefined
  log: Logger
  /**
   * The indexer's transport (its nodes behind their `--rpc-rate-limit` limiters), so that the 0G
   * reads count against the same limits as the index's; undefined (a read-only replica, which
   * indexes nothing): nodes and limiters of its own.
   */
  transport?: Transport | undefined
}

/**
 * The indexer's TEE checking as the configuration sets it up: 0G records read through the
 * indexer's nodes and rate limits (a call or two per service an hour, beside the index's own),
 * collateral kept in the database.
 */
export function startServiceTeeChecking(config: Config, { store, database, log, transport = createNodeTransports(config).transport }: StartServiceTeeCheckingParameters): StartTeeCheckingReturnType {
  const chain = defineChain({ id: config.chainId, name: config.network, nativeCurrency: { name: 'native token', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [config.rpcUrl] } } })
  const client = createPublicClient({ chain, transport })
  const collateralStore = database === undefined ? createMemoryCollateralStore() : createDatabaseCollateralStore(database)
  const inferenceServing = config.inferenceServing
  return startTeeChecking({
    store,
    check: createConfiguredTeeCheck(config, { client, collateralStore }),
    followRecords: inferenceServing === null ? undefined : (onChange) => followProviderRecords(client, { inferenceServing, maxRange: config.logRange ?? undefined, onChange }),
    log,
  })
}
