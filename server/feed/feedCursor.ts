import { FeedCursorSchema } from '../../contract/feed.ts'
import { correctionRank, headRank, type FeedPosition } from './FeedPosition.ts'

/** How many hex digits of the witness hash an id carries: 8 bytes, ample among the few blocks a feed keeps. */
const witnessDigits = 16

/** A cursor as a client sends it back: the chain, the position, and the start of the witness hash. */
export type FeedCursor = Omit<FeedPosition, 'witness'> & { chainId: number; witnessPrefix: string }

/** The start of a hash as an id carries it. */
export function witnessPrefixOf(hash: string): string {
  return hash.slice(2, 2 + witnessDigits)
}

/** The event id of a position (see FeedCursorSchema). */
export function formatFeedCursor(chainId: number, { block, rank, witness }: FeedPosition): string {
  const rankText = rank === headRank ? 'h' : rank === correctionRank ? 'c' : String(rank)
  return `${chainId}-${block}-${witnessPrefixOf(witness)}-${rankText}`
}

/** Reads an id back; undefined when it is not one this API could have sent. */
export function parseFeedCursor(text: string): FeedCursor | undefined {
  if (!FeedCursorSchema.safeParse(text).success) return undefined
  const [chainId, block, witnessPrefix, rankText] = text.split('-') as [string, string, string, string]
  const rank = rankText === 'h' ? headRank : rankText === 'c' ? correctionRank : Number(rankText)
  return { chainId: Number(chainId), block: BigInt(block), witnessPrefix, rank }
}
