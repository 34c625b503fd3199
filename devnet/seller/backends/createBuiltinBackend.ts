import { keccak256, stringToHex } from 'viem'
import type { SellerBackend, SellerBackendRequest, SellerBackendAnswer } from './SellerBackend.ts'

export type CreateBuiltinBackendReturnType = SellerBackend

/** Token counts for the usage record: whitespace-separated words, a stand-in for a tokenizer. */
function countWords(text: string): number {
  const trimmed = text.trim()
  return trimmed === '' ? 0 : trimmed.split(/\s+/u).length
}

function firstSentence(text: string): string {
  const trimmed = text.trim()
  const match = /^[^.!?\n]*[.!?]?/u.exec(trimmed)
  return match?.[0] ?? trimmed
}

/**
 * The devnet's default answerer: a deterministic analysis of the prompt (word and byte counts,
 * its keccak256, its first sentence reversed), so the same prompt always gets the same output
 * and tests can predict it, with no model to download.
 */
export function createBuiltinBackend(): CreateBuiltinBackendReturnType {
  return {
    name: 'builtin',
    async answer({ modelId, prompt }: SellerBackendRequest): Promise<SellerBackendAnswer> {
      const bytes = Buffer.byteLength(prompt, 'utf8')
      const words = countWords(prompt)
      const reversed = [...firstSentence(prompt)].reverse().join('')
      const output = [
        `Reference seller answer (model ${modelId}).`,
        `Your prompt has ${words} ${words === 1 ? 'word' : 'words'} in ${bytes} UTF-8 ${bytes === 1 ? 'byte' : 'bytes'}.`,
        `Its keccak256 is ${keccak256(stringToHex(prompt))}.`,
        `Its first sentence reversed: "${reversed}"`,
      ].join('\n')
      return {
        output,
        usage: { model: modelId, promptTokens: words, completionTokens: countWords(output) },
      }
    },
  }
}
