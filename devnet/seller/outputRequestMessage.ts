/**
 * The EIP-191 message a buyer signs to fetch a job's output from the reference seller:
 * `output:<jobId>` with the job id in canonical decimal. See `serveOutputs.ts`.
 */
export function outputRequestMessage(jobId: bigint): string {
  return `output:${jobId}`
}
