import { type Address, type Hex, type PrivateKeyAccount, getAddress, keccak256, stringToBytes } from 'viem'
import { OutputAddressRefusedError } from '../../errors/output.ts'
import type { OutputSettings } from '../output/readOutputSettings.ts'
import { maxOutputBodyDepth, readOutputField } from '../output/readOutputField.ts'
import { type AddressPolicy, requestUntrusted, type RequestUntrustedReturnType } from '../../platform/fetch/requestUntrusted.ts'
import { signOutputRequest } from './signOutputRequest.ts'
import { quoteUntrustedText } from '../../contract/quoteUntrustedText.ts'

export type FetchJobOutputParameters = {
  /** Each seller's endpoint, and how much of an answer is read. */
  settings: OutputSettings
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
  /** Per request, body included: a seller that accepts the connection but never answers must not hold `run`. */
  requestTimeoutMs?: number
}

export type FetchJobOutputReturnType =
  | { output: string; note: null }
  | { output: null; note: string }

/** The endpoint is the person's setting: an IP address they wrote is reached, a name only when it resolves to public addresses. */
const outputAddresses: AddressPolicy = { allow: 'named', refuse: (refused) => new OutputAddressRefusedError(refused) }

/** The longest part of a redirect target, or of a connection error, a note quotes. */
const maxQuoted = 200

/**
 * Fetches the job's output from its own seller's endpoint (the reference seller's protocol: GET
 * with the buyer's signature over the job, seller, chain, escrow and an expiry a minute ahead; see
 * outputRequestMessage) and keeps it only when keccak256 of its UTF-8 bytes equals the on-chain
 * `outputRootHash`. A seller with no endpoint of its own gets no request; redirects are not
 * followed; at most `maxBytes` are read. Never throws: the job is paid and settled whatever
 * happens here, so a failure becomes a note beside the verified result.
 */
export async function fetchJobOutput({
  settings,
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
  const template = settings.endpoints.get(getAddress(seller))
  if (template === undefined) return { output: null, note: noEndpointNote(settings, seller) }
  const url = template.replaceAll('{jobId}', jobId.toString())
  const deadline = Date.now() + retryForMs
  for (;;) {
    // Signed afresh for each attempt: a signature lives a minute.
    const headers = { accept: 'application/json', ...(await signOutputRequest(account, { jobId, seller, chainId, escrow })) }
    let answer: RequestUntrustedReturnType
    try {
      answer = await requestUntrusted({ url, headers, maxBytes: settings.maxBytes, timeoutMs: requestTimeoutMs, addresses: outputAddresses })
    } catch (error) {
      return { output: null, note: failureNote(url, error, requestTimeoutMs) }
    }
    if (answer.status === 404 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, retryIntervalMs))
      continue
    }
    if (answer.body === null) return { output: null, note: statusNote(url, answer, retryForMs) }
    if (answer.body === 'too large') {
      return { output: null, note: `The seller's output endpoint ${url} sent more than ${settings.maxBytes} bytes (MARKET_MAX_OUTPUT_BYTES); reading stopped there.` }
    }
    const read = readOutputField(answer.body)
    if ('problem' in read) {
      return {
        output: null,
        note:
          read.problem === 'too deep'
            ? `The seller's output endpoint ${url} answered JSON nested deeper than ${maxOutputBodyDepth} levels; it was not parsed.`
            : `The seller's output endpoint ${url} answered without an output.`,
      }
    }
    const hash = keccak256(stringToBytes(read.output))
    if (hash !== outputRootHash.toLowerCase()) {
      return {
        output: null,
        note: `The seller's output hashes to ${hash}, not to the job's on-chain outputRootHash ${outputRootHash}, so it was withheld.`,
      }
    }
    return { output: read.output, note: null }
  }
}

function noEndpointNote({ endpoints, unboundUrl }: OutputSettings, seller: Address): string {
  if (unboundUrl !== null) {
    return `MARKET_OUTPUT_URL is set but MARKET_OUTPUT_SELLER is not, so the output was not fetched: a request signed for one seller goes only to that seller's endpoint. Set MARKET_OUTPUT_SELLER to the seller it serves (here ${seller}), or use MARKET_OUTPUT_URLS.`
  }
  if (endpoints.size === 0) return 'MARKET_OUTPUT_URL is not set, so the output was not fetched.'
  return `No output endpoint is configured for the job's seller ${seller}, so the output was not fetched: a request signed for one seller goes only to that seller's endpoint. Add it to MARKET_OUTPUT_URLS as ${seller}=<URL with {jobId}>.`
}

function failureNote(url: string, error: unknown, requestTimeoutMs: number): string {
  if (error instanceof OutputAddressRefusedError) return `The seller's output endpoint ${url} was not contacted: ${error.message}`
  const timedOut = error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')
  return timedOut
    ? `The seller's output endpoint ${url} did not answer within ${requestTimeoutMs / 1_000} s.`
    : `The seller's output endpoint ${url} could not be reached${error instanceof Error ? ` (${quoteSellerText(error.message)})` : ''}.`
}

function statusNote(url: string, { status, location }: { status: number; location?: string | undefined }, retryForMs: number): string {
  if (status === 404) return `The seller did not serve the output at ${url} within ${retryForMs / 1_000} s (it answered 404).`
  if (status >= 300 && status <= 399 && location !== undefined) {
    return `The seller's output endpoint ${url} answered a redirect (${status}) to ${quoteSellerText(location)}; not followed.`
  }
  return `The seller's output endpoint ${url} answered ${status}.`
}

/**
 * Text the seller's side chose (a Location, or a connection error that may carry its
 * certificate's names), quoted with control, bidi and invisible characters escaped, and cut to a
 * readable length.
 */
function quoteSellerText(text: string): string {
  return quoteUntrustedText(text.length > maxQuoted ? `${text.slice(0, maxQuoted)}…` : text)
}
