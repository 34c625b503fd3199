import { ResponseBodyTooLargeError } from 'viem'

/**
 * `limit`: the widest range the node accepts, wherever it is asked. `suggestion`: a range that
 * should work for this request, where a cap on results was hit (denser blocks need less).
 * `answer`: the answer was too big (a count of results, a size), naming no range; `logs` is the
 * count the node allows, when it says one.
 */
export type LogRangeHint = { kind: 'limit' | 'suggestion'; blocks: bigint } | { kind: 'answer'; logs?: bigint }

/**
 * What a node's refusal of an `eth_getLogs` says about the window: the block range it names, if it
 * names one, else whether the answer was too big. Providers say it in their own words:
 * - "query block range too large: 9000 blocks, max is 2000", "exceed maximum block range: 5000",
 *   "maximum [from, to] blocks distance: 10000" (Cosmos-EVM nodes), "block range limit (1024)";
 * - "eth_getLogs is limited to a 10,000 range" (QuickNode), "up to a 2K block range" (Alchemy);
 * - "Try with this block range [0x1a2b, 0x1c3d]" (Infura, Alchemy): the range they suggest;
 * - "query returned more than 10000 results" (Infura, geth-based nodes), "log response size
 *   exceeded", "response size exceeds 10 MB", "too many logs" (an answer, not a range); viem's own
 *   ResponseBodyTooLargeError says the same.
 */
export function readLogRangeHint(error: unknown): LogRangeHint | undefined {
  for (let link: unknown = error; link instanceof Error; link = link.cause) {
    const text = [(link as { details?: unknown }).details, link.message].filter((part) => typeof part === 'string').join(' ')
    const limit = fromNamedLimit(text)
    if (limit !== undefined && limit > 0n) return { blocks: limit, kind: 'limit' }
    const suggested = fromSuggestedRange(text)
    if (suggested !== undefined && suggested > 0n) return { blocks: suggested, kind: 'suggestion' }
  }
  for (let link: unknown = error; link instanceof Error; link = link.cause) {
    if (link instanceof ResponseBodyTooLargeError) return { kind: 'answer' }
    const text = [(link as { details?: unknown }).details, link.message].filter((part) => typeof part === 'string').join(' ')
    const count = resultCount.exec(text)
    if (count !== null) return { kind: 'answer', logs: BigInt((count[1] as string).replace(/[,_]/g, '')) }
    if (answerTooBig.test(text)) return { kind: 'answer' }
  }
  return undefined
}

/** A cap on the answer's count of results or logs. */
const resultCount = /(?:more than|over|exceeds?|max(?:imum)?(?: of)?|cap of|limit(?:ed)? to)\s+(\d[\d,_]*)\s+(?:results|logs|log entries)/i
/** An answer refused for its size or count, naming no number of logs. */
const answerTooBig = /response size|(?:result|response|answer)s? (?:is |was )?too (?:large|big)|too many (?:results|logs)|\d+\s*mb\b/i

const suggestedRange = /block range\W{1,4}\[\s*(0x[0-9a-f]+|\d+)\s*,\s*(0x[0-9a-f]+|\d+)\s*\]/i

function fromSuggestedRange(text: string): bigint | undefined {
  const match = suggestedRange.exec(text)
  if (match === null) return undefined
  const [from, to] = [BigInt(match[1] as string), BigInt(match[2] as string)]
  return to >= from ? to - from + 1n : undefined
}

/** A limit word, then within a few words a number that is not a count of results or logs. */
const namedLimit =
  /(?:max(?:imum)?|limit(?:ed)?(?: to)?|up to|at most|exceeds?|allowed)\b[^0-9\n]{0,40}?(\d[\d,_]*)(\s*k\b)?(?!\s*(?:results|logs|log entries|items|mb|kb|bytes))/i

function fromNamedLimit(text: string): bigint | undefined {
  if (!/block|range|distance/i.test(text)) return undefined
  const match = namedLimit.exec(text)
  if (match === null) return undefined
  const value = BigInt((match[1] as string).replace(/[,_]/g, ''))
  return match[2] === undefined ? value : value * 1_000n
}
