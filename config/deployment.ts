import { z } from 'zod'
import { AddressSchema, UintStringSchema } from '../contract/primitives.ts'

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
})

export type Deployment = z.infer<typeof DeploymentSchema>

/** The contracts the indexer reads (their events and records): what of a deployment travels through it, as one value. */
export type IndexedDeployment = Pick<Deployment, 'registry' | 'escrow' | 'arbiter'>
