/**
 * The content hash of an attestation over the job's own output: its output root hash without the
 * 0x. Sellers attest the output they serve, so a job's content hash usually is this: toJob keeps it
 * as a view of the output root hash, and the stored form leaves it out.
 */
export function outputContentHash(outputRootHash: string): string {
  return outputRootHash.slice(2)
}
