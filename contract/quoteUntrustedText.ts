import { escapeControlCharacters } from './escapeControlCharacters.ts'

/**
 * A string written by someone else (a seller's modelId, providerIdentity, endpoint or output) as
 * a sentence may show it: in double quotes, its quotes and backslashes escaped, and every control,
 * bidi or invisible character written as its escape (`\n`, `\u202e`), so it can neither end the
 * quote, start a line of its own, nor reorder what follows it. The same text as a JSON string.
 */
export function quoteUntrustedText(text: string): string {
  return escapeControlCharacters(JSON.stringify(text))
}
