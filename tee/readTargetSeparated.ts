/**
 * The most of `additionalInfo` parsed: it is any provider's text, stored on chain at its cost, and
 * the one field read from it is small. Longer text is not parsed (and reads as not separated).
 */
export const maxAdditionalInfoLength = 16 * 1_024

/**
 * Whether 0G's `additionalInfo` (JSON the provider writes: `TargetSeparated`, `TargetTeeAddress`,
 * …) marks a TeeTLS proxy. Only the JSON `true` counts: `"true"`, `1` or a malformed text do not,
 * and nothing here throws for what a provider wrote.
 */
export function readTargetSeparated(additionalInfo: string): boolean {
  if (additionalInfo.length > maxAdditionalInfoLength) return false
  try {
    const parsed: unknown = JSON.parse(additionalInfo)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && (parsed as { TargetSeparated?: unknown }).TargetSeparated === true
  } catch {
    return false
  }
}
