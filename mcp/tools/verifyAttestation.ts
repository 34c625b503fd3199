import { JobIdArgsSchema, VerifyAttestationResultSchema } from '../../contract/mcp.ts'
import { verifyJobAttestation } from '../verify/verifyJobAttestation.ts'
import { defineTool } from './defineTool.ts'
import type { ToolContext } from './ToolContext.ts'

export const verifyAttestationTool = defineTool({
  name: 'verify_attestation',
  title: "Verify a job's TEE attestation",
  description:
    "Checks that a job's TEE attestation was signed by its service's registered signingAddress: the signer is recovered locally " +
    "by ECDSA (EIP-191, same rules as the chain) and compared with the registry's current signingAddress, as the server's index " +
    'holds it (the same record get_service and the REST API answer). ' +
    'Returns { jobId, ok, recoveredSigner, expectedSigner, note }; ok is true only on a match, recoveredSigner is null for a malformed ' +
    'signature, and note says what failed (including when the service rotated its key after the job was attested). ' +
    'A job with no attestation yet (e.g. Pending or Expired) is an error naming its state. jobId is a stringified positive integer.',
  inputSchema: JobIdArgsSchema,
  outputSchema: VerifyAttestationResultSchema,
  annotations: { title: "Verify a job's TEE attestation", readOnlyHint: true, openWorldHint: false },
  async handler({ source, log }: ToolContext, { jobId }) {
    const job = await source.getJob({ jobId: BigInt(jobId) })
    return verifyJobAttestation(source, { job, log })
  },
})
