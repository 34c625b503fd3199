/**
 * Whether `If-None-Match` names the current entity tag (RFC 9110 §13.1.2): weak comparison, so a
 * tag matches with or without its `W/` prefix; `*` matches any current representation.
 */
export function isNotModified(ifNoneMatch: string | undefined, tag: string): boolean {
  if (ifNoneMatch === undefined) return false
  if (ifNoneMatch.trim() === '*') return true
  const opaque = withoutWeakPrefix(tag)
  return ifNoneMatch.split(',').some((candidate) => withoutWeakPrefix(candidate.trim()) === opaque)
}

function withoutWeakPrefix(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag
}
