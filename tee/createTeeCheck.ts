import { type Address, type Hex, hexToBytes, type PublicClient } from 'viem'
import type { Service } from '../contract/service.ts'
import { checkServiceTee, type CheckServiceTeeReturnType } from './checkServiceTee.ts'
import type { TeeAllowList } from './checkTeeEvidence.ts'
import type { CollateralStore } from './CollateralStore.ts'
import { createCollateralCache } from './createCollateralCache.ts'
import { createGpuVerifier } from './createGpuVerifier.ts'
import type { TcbPolicy } from './defaultTcbPolicy.ts'
import { readProviderRecord } from './readProviderRecord.ts'

export type CreateTeeCheckParameters = {
  client: PublicClient
  /** 0G's InferenceServing on the client's chain; null: none, so no service has a record (`none`). */
  inferenceServing: Address | null
  /** Intel's PCS or the operator's PCCS. */
  pccsUrl: string
  /** DER of the devnet's root, on the devnet only (config's `teeRootCa`); null: Intel's root alone. */
  rootCa: Hex | null
  collateralStore: CollateralStore
  /** The age at which collateral is fetched again whatever its expiry (default 1 day). */
  collateralMaxAgeMs?: number | undefined
  /** Lets a provider's URL name a private address: the devnet's loopback sellers, never elsewhere. */
  allowPrivate: boolean
  /** The TCB statuses and advisories accepted; default `defaultTcbPolicy`. */
  policy?: TcbPolicy | undefined
  /** Known-good compose hashes and MRTDs; without one, measured, not appraised. */
  allowList?: TeeAllowList | undefined
  /** The operator's NRAS for GPU evidence (config's `teeGpuVerifier`); null or absent: GPU evidence is not checked. */
  gpuVerifierUrl?: string | null | undefined
  /** The longest a verdict stands before it is checked again (default 1 hour). */
  maxAgeMs?: number | undefined
}

export type TeeCheck = (service: Service) => Promise<CheckServiceTeeReturnType>

const hour = 3_600_000

/** One service's TEE check, bound to a chain, a 0G contract, a collateral source, a trust root and, when opted in, an NRAS. */
export function createTeeCheck({ client, inferenceServing, pccsUrl, rootCa, collateralStore, collateralMaxAgeMs, allowPrivate, policy, allowList, gpuVerifierUrl, maxAgeMs = hour }: CreateTeeCheckParameters): TeeCheck {
  const cache = createCollateralCache({ store: collateralStore, maxAgeMs: collateralMaxAgeMs })
  // One verifier for every check, so that NRAS's key set is fetched once an hour, not per service.
  const gpuVerifier = gpuVerifierUrl == null ? undefined : createGpuVerifier({ url: gpuVerifierUrl, allowPrivate })
  const root = rootCa === null ? undefined : hexToBytes(rootCa)
  const readRecord =
    inferenceServing === null ? async () => undefined : (provider: Address) => readProviderRecord(client, { contract: inferenceServing, provider })
  return (service) =>
    checkServiceTee({
      service,
      readRecord,
      collateral: (key) => cache.get({ ...key, pcsUrl: pccsUrl, rootCa: root }),
      rootCa: root,
      policy,
      allowList,
      maxAgeMs,
      allowPrivate,
      gpuVerifier,
    })
}
