import { z } from 'zod'
import { HealthSchema } from './health.ts'
import { ServiceListSchema } from './lists.ts'
import { AddressSchema, Bytes32Schema, PositiveIdSchema, UintStringSchema } from './primitives.ts'
import { ServiceSchema } from './service.ts'
import { strictParameters } from './strictParameters.ts'

// MCP SDK 1.32 takes these object schemas as `inputSchema` / `outputSchema` directly, or their
// `.shape` as a raw shape; output schemas must stay plain zod objects (no refinements). Input
// schemas are strict: an unknown argument is an invalid-params error, never ignored.
// get_service answers a `ServiceSchema`, get_job a `JobSchema` (the document's Job, no events).

export const runTimeoutSec = { default: 300, min: 30, max: 86_400 } as const

/** list_services takes none. */
export const NoArgsSchema = strictParameters({}, { kind: 'argument' })

const serviceIdArgs = {
  serviceId: PositiveIdSchema.describe('Service id, a stringified positive integer such as "1".'),
}

export const ServiceIdArgsSchema = strictParameters(serviceIdArgs, { kind: 'argument' })
export type ServiceIdArgs = z.output<typeof ServiceIdArgsSchema>

export const JobIdArgsSchema = strictParameters(
  { jobId: PositiveIdSchema.describe('Job id, a stringified positive integer such as "1".') },
  { kind: 'argument' },
)
export type JobIdArgs = z.output<typeof JobIdArgsSchema>

export const RunArgsSchema = strictParameters(
  {
    ...serviceIdArgs,
    prompt: z
      .string()
      .min(1, { message: 'The prompt must not be empty.' })
      .describe("Input for the service; its UTF-8 size must not exceed the service's maxInputBytes."),
    timeoutSec: z
      .number()
      .int()
      .min(runTimeoutSec.min)
      .max(runTimeoutSec.max)
      .default(runTimeoutSec.default)
      .describe(
        `Job timeout in seconds (${runTimeoutSec.min} to ${runTimeoutSec.max}, default ${runTimeoutSec.default}): after it the escrow is reclaimed.`,
      ),
  },
  { kind: 'argument' },
)
export type RunArgs = z.output<typeof RunArgsSchema>

/** `GET /healthz` of the hosted MCP server, as the document gives it (not a REST route: no OpenAPI entry). */
export const McpHealthSchema = HealthSchema.pick({ network: true, chainId: true }).extend({
  ok: z.boolean().describe('True when the chain answers with the configured chain id.'),
  service: z.string().describe('Name of this server ("tee-market-mcp").'),
  tools: z.array(z.string()).describe('Names of the tools offered.'),
})
export type McpHealth = z.output<typeof McpHealthSchema>

export const ListServicesResultSchema = HealthSchema.pick({ network: true, chainId: true }).merge(ServiceListSchema)
export type ListServicesResult = z.output<typeof ListServicesResultSchema>

export const VerifyAttestationResultSchema = z.object({
  jobId: UintStringSchema.describe('The job checked.'),
  ok: z.boolean().describe("True when the recovered signer equals the service's registered signingAddress."),
  recoveredSigner: AddressSchema.nullable().describe(
    'Signer recovered from the attestation signature by pure ECDSA recovery; null when the signature is malformed.',
  ),
  expectedSigner: AddressSchema.describe("The service's current signingAddress in the registry."),
  note: z.string().describe('What was checked, and what failed when ok is false.'),
})
export type VerifyAttestationResult = z.output<typeof VerifyAttestationResultSchema>

export const RunResultSchema = z.object({
  jobId: UintStringSchema.describe('The job created on chain.'),
  verified: VerifyAttestationResultSchema.pick({ ok: true, recoveredSigner: true, expectedSigner: true }).describe(
    'Local verification of the attestation.',
  ),
  txHashes: z
    .object({ createJob: Bytes32Schema.describe('Transaction that created the job.') })
    .describe('Transactions sent.'),
  createJobChainscan: z
    .string()
    .url()
    .nullable()
    .describe('Explorer page of the createJob transaction; null when the network has no explorer.'),
  service: z
    .object({
      id: ServiceSchema.shape.serviceId,
      modelId: ServiceSchema.shape.modelId,
      signingAddress: ServiceSchema.shape.signingAddress,
    })
    .describe('The service paid.'),
  buyer: AddressSchema.describe('Paying wallet (from MARKET_PRIVATE_KEY).'),
  reuseNote: z
    .string()
    .optional()
    .describe(
      'Present when this call paid nothing: the buyer already had an open job for the same service and prompt (an earlier run, ' +
        'perhaps one whose call timed out), or an earlier run\'s createJob for them whose receipt was never read, sent again as ' +
        'signed, created one; this call followed and returns that job.',
    ),
  output: z
    .string()
    .optional()
    .describe("The seller's output, present only when it was served and its keccak256 equals the job's on-chain outputRootHash."),
  outputNote: z
    .string()
    .optional()
    .describe(
      "Present exactly when output is absent: why (no output endpoint configured for the job's seller, a redirect (not followed), " +
        'an answer over MARKET_MAX_OUTPUT_BYTES, a refused address, the seller did not serve the output in time or refused it, or ' +
        "the served output's keccak256 differs from the on-chain outputRootHash, both hashes quoted). The job is paid " +
        'and settled either way; do not run again to get the output.',
    ),
})
export type RunResult = z.output<typeof RunResultSchema>
