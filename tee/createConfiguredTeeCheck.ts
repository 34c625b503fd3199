import { join } from 'node:path'
import type { PublicClient } from 'viem'
import type { Config } from '../config/ConfigSchema.ts'
import { networks } from '../config/networks.ts'
import { userFolder } from '../config/userFolder.ts'
import type { CollateralStore } from './CollateralStore.ts'
import { createFileCollateralStore } from './createFileCollateralStore.ts'
import { createMemoryCollateralStore } from './createMemoryCollateralStore.ts'
import { createTeeCheck, type TeeCheck } from './createTeeCheck.ts'
import { toTeePolicy } from './toTeePolicy.ts'

export type CreateConfiguredTeeCheckParameters = {
  client: PublicClient
  /**
   * Default: a file in `~/.tee-market`, kept across restarts (the local server, a hosted one
   * reading the chain); on the devnet, memory: its root is new at each start, so its collateral
   * serves no later process, and a year-long entry per start would only grow the file.
   */
  collateralStore?: CollateralStore | undefined
}

/** `~/.tee-market/tee-collateral.json`: Intel's collateral as this person's servers fetched it. */
export const defaultCollateralPath = join(userFolder, 'tee-collateral.json')

/**
 * The TEE check as the configuration sets it up: its 0G contract, its PCCS, its TCB policy and
 * allow-lists, its NRAS for GPU evidence (when the operator opts in), the devnet's root on the devnet only (config's `teeRootCa`), and private provider
 * addresses reachable on the devnet only, whose sellers listen on loopback.
 */
export function createConfiguredTeeCheck(config: Config, { client, collateralStore }: CreateConfiguredTeeCheckParameters): TeeCheck {
  return createTeeCheck({
    client,
    inferenceServing: config.inferenceServing,
    pccsUrl: config.pccsUrl,
    rootCa: config.teeRootCa,
    collateralStore: collateralStore ?? (config.teeRootCa === null ? createFileCollateralStore({ path: defaultCollateralPath }) : createMemoryCollateralStore()),
    collateralMaxAgeMs: config.teeCollateralMaxAge * 1_000,
    allowPrivate: config.chainId === networks.devnet.chainId,
    gpuVerifierUrl: config.teeGpuVerifier,
    ...toTeePolicy(config),
  })
}
