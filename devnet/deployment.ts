import { getAddress, isAddress } from 'viem'
import { z } from 'zod'

const ChecksummedAddressSchema = z
  .string()
  .refine((value) => isAddress(value, { strict: false }) && getAddress(value) === value, {
    message: 'Expected an EIP-55 checksummed 0x address.',
  })
  .transform((value) => value as `0x${string}`)

/** Where the devnet contracts live: what `deployContracts` returns and the devnet preset reads. */
export const DeploymentSchema = z.object({
  chainId: z.number().int().positive(),
  registry: ChecksummedAddressSchema,
  escrow: ChecksummedAddressSchema,
  arbiter: ChecksummedAddressSchema,
  attestationVerifier: ChecksummedAddressSchema,
  agentToken: ChecksummedAddressSchema,
  /** Block of the first deployment transaction, as a decimal string: where indexing starts. */
  deployBlock: z.string().regex(/^(0|[1-9][0-9]*)$/),
})

export type Deployment = z.infer<typeof DeploymentSchema>
