/** Longest setting quoted in full; anything longer is described by its length. */
const maxQuoted = 120

/**
 * Runs of characters a key, token or API secret is written in: 32+ hex digits (a private key, an
 * Infura project id) or 20+ base64/base64url characters (most API tokens).
 */
const keyLike = /[0-9a-fA-F]{32,}|[A-Za-z0-9+/_=-]{20,}/

/** Whether a setting's value may appear in a message: short, and holding nothing written like a key. */
export function canQuoteSetting(value: string): boolean {
  return value.length <= maxQuoted && !keyLike.test(value)
}

/**
 * A setting's value as an error message may show it: quoted when it cannot hold a key, else only
 * its length. A private key pasted into the wrong variable must not reach a log or an agent.
 */
export function quoteSetting(value: string): string {
  return canQuoteSetting(value) ? JSON.stringify(value) : `a value of ${value.length} characters, not shown as it may hold a key`
}
