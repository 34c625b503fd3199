import { z } from 'zod'
import { AddressSchema, HexSchema, UintStringSchema } from '../contract/primitives.ts'

/**
 * The devnet's own TEE: a mock of 0G's InferenceServing holding the providers' records, and the
 * PCCS (Intel's PCS v4 API) serving the collateral of the devnet's attestation root.
 */
export const DeploymentTeeSchema = z.object({
  inferenceServing: AddressSchema,
  /** Base URL of the devnet's PCCS, e.g. `http://127.0.0.1:8083` (paths `/sgx|tdx/certification/v4/…`). */
  pccsUrl: z.string().url(),
  /** DER of the devnet's root certificate, 0x hex: trusted on the devnet's chain id only. */
  rootCa: HexSchema,
})

export type DeploymentTee = z.infer<typeof DeploymentTeeSchema>

/** Where the devnet contracts live: what `deployContracts` returns and the devnet preset reads. */
export const DeploymentSchema = z.object({
  chainId: z.number().int().positive(),
  registry: AddressSchema,
  escrow: AddressSchema,
  arbiter: AddressSchema,
  attestationVerifier: AddressSchema,
  reputationVault: AddressSchema,
  /** The registry's agent token (its `agentNFT()`), which the registry deploys. */
  agentToken: AddressSchema,
  /** Block of the first deployment transaction, as a decimal string: where indexing starts. */
  deployBlock: UintStringSchema,
  /** Optional: records written before the devnet had a TEE (and deployments without one) have none. */
  tee: DeploymentTeeSchema.optional(),
})

export type Deployment = z.infer<typeof DeploymentSchema>

/** The contracts the indexer reads (their events and records): what of a deployment travels through it, as one value. */
export type IndexedDeployment = Pick<Deployment, 'registry' | 'escrow' | 'arbiter'>
