import type { PublicClient } from 'viem'
import { networks } from '../../config/networks.ts'
import type { Deployment } from '../../config/deployment.ts'
import { createChainSource } from '../../mcp/source/createChainSource.ts'
import { createTeeVerdictCache } from '../../mcp/source/createTeeVerdictCache.ts'
import type { MarketSource } from '../../mcp/source/MarketSource.ts'
import { createMemoryCollateralStore } from '../../tee/createMemoryCollateralStore.ts'
import { createTeeCheck } from '../../tee/createTeeCheck.ts'
import { intelPcsUrl } from '../../tee/fetchCollateral.ts'

/**
 * The chain itself as the tests' oracle for what the tools answer: the same readers the chain
 * source uses, and a TEE check of its own against the deployment's devnet TEE (collateral in memory).
 */
export function createChainOracle(client: PublicClient, deployment: Pick<Deployment, 'registry' | 'escrow' | 'tee' | 'chainId'>): MarketSource {
  const check = createTeeCheck({
    client,
    inferenceServing: deployment.tee?.inferenceServing ?? null,
    pccsUrl: deployment.tee?.pccsUrl ?? intelPcsUrl,
    rootCa: deployment.chainId === networks.devnet.chainId ? (deployment.tee?.rootCa ?? null) : null,
    collateralStore: createMemoryCollateralStore(),
    allowPrivate: true,
  })
  return createChainSource(client, { registry: deployment.registry, escrow: deployment.escrow, teeVerdicts: createTeeVerdictCache({ check }) })
}
