/** Query parameters whose value is a credential by name. */
const secretName = /key|token|secret|auth|pass|sig|credential/i
/** A path segment or value that looks like an API key: long, and letters mixed with digits. */
const keyLike = /^(?=.*[0-9])(?=.*[a-zA-Z])[A-Za-z0-9_-]{20,}$/

/**
 * The URL as it may be printed: without user info, with API-key-looking query values and path
 * segments (Infura's /v3/<key>, Alchemy's /v2/<key>) replaced by "***".
 */
export function redactUrl(url: string): string {
  if (!URL.canParse(url)) return '(an unparsable URL)'
  const parsed = new URL(url)
  parsed.username = ''
  parsed.password = ''
  parsed.pathname = parsed.pathname
    .split('/')
    .map((segment) => (keyLike.test(segment) ? '***' : segment))
    .join('/')
  for (const [name, value] of [...parsed.searchParams]) {
    if (secretName.test(name) || keyLike.test(value)) parsed.searchParams.set(name, '***')
  }
  return parsed.toString().replace(/\/$/, '').replaceAll('%2A%2A%2A', '***')
}
