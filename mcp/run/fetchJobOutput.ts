import { type Address, type Hex, type PrivateKeyAccount, keccak256, stringToBytes } from 'viem'
import { signOutputRequest } from './signOutputRequest.ts'

export type FetchJobOutputParameters = {
  /** Where the seller serves outputs, `{jobId}` standing for the job id. */
  urlTemplate: string
  jobId: bigint
  /** The job's buyer: the seller serves an output only to it. */
  account: PrivateKeyAccount
  /** The job's seller, chain and escrow, which the request's signature names. */
  seller: Address
  chainId: number
  escrow: Address
  /** The job's on-chain `outputRootHash`; the output must hash to it. */
  outputRootHash: Hex
  /** The seller records an output a moment after it settles: 404s are retried this long. */
  retryForMs?: number
  retryIntervalMs?: number
  /** Per request: a seller that accepts the connection but never answers must not hold `run`. */
  requestTimeoutMs?: number
}

export type FetchJobOutputReturnType =
  | { output: string; note: null }
  | { output: null; note: string }

/**
 * Fetches the job's output from its seller (the reference seller's protocol: GET with the
 * buyer's signature over the job, seller, chain, escrow and an expiry a minute ahead; see
 * outputRequestMessage) and keeps it only when keccak256 of its
 * UTF-8 bytes equals the on-chain `outputRootHash`. Never throws: the job is paid and settled
 * whatever happens here, so a failure becomes a note beside the verified result.
 */
export async function fetchJobOutput({
  urlTemplate,
  jobId,
  account,
  seller,
  chainId,
  escrow,
  outputRootHash,
  retryForMs = 15_000,
  retryIntervalMs = 500,
  requestTimeoutMs = 10_000,
}: FetchJobOutputParameters): Promise<FetchJobOutputReturnType> {
  const url = urlTemplate.replaceAll('{jobId}', jobId.toString())
  const deadline = Date.now() + retryForMs
  for (;;) {
    // Signed afresh for each attempt: a signature lives a minute.
    const signed = await signOutputRequest(account, { jobId, seller, chainId, escrow })
    let response: Response
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json', ...signed },
        signal: AbortSignal.timeout(requestTimeoutMs),
      })
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError'
      return {
        output: null,
        note: timedOut
          ? `The seller's output endpoint ${url} did not answer within ${requestTimeoutMs / 1_000} s.`
          : `The seller's output endpoint ${url} could not be reached.`,
      }
    }
    if (response.status === 404) {
      await response.body?.cancel()
      if (Date.now() >= deadline) {
        return { output: null, note: `The seller did not serve the output at ${url} within ${retryForMs / 1_000} s (it answered 404).` }
      }
      await new Promise((resolve) => setTimeout(resolve, retryIntervalMs))
      continue
    }
    if (!response.ok) {
      await response.body?.cancel()
      return { output: null, note: `The seller's output endpoint ${url} answered ${response.status}.` }
    }
    const body: unknown = await response.json().catch(() => null)
    const output = typeof body === 'object' && body !== null && 'output' in body ? body.output : undefined
    if (typeof output !== 'string') {
      return { output: null, note: `The seller's output endpoint ${url} answered without an output.` }
    }
    const hash = keccak256(stringToBytes(output))
    if (hash !== outputRootHash.toLowerCase()) {
      return {
        output: null,
        note: `The seller's output hashes to ${hash}, not to the job's on-chain outputRootHash ${outputRootHash}, so it was withheld.`,
      }
    }
    return { output, note: null }
  }
}
