import { type KeyObject, verify } from 'node:crypto'
import { quoteUntrustedText } from '../contract/quoteUntrustedText.ts'
import { TeeGpuTokenInvalidError } from '../errors/tee.ts'

export type VerifyEs384JwtParameters = {
  token: string
  /** What the token is, for the message: `overall`, `GPU-0`. */
  name: string
  /** The key of a key id (an NRAS key cache's `keyFor`). */
  keyFor: (kid: string) => Promise<KeyObject | undefined>
  now: Date
}

/** The token's claims, once its signature is NRAS's. */
export type VerifyEs384JwtReturnType = Record<string, unknown>

export type VerifyEs384JwtErrorType = TeeGpuTokenInvalidError

/** Clocks differ; a token NRAS has just issued must not fail for a few minutes of skew. */
const leewayMs = 5 * 60_000

function decodeJson(name: string, part: string, what: string): Record<string, unknown> {
  let json: unknown
  try {
    json = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
  } catch (cause) {
    throw new TeeGpuTokenInvalidError({ token: name, reason: `its ${what} is not base64url JSON`, cause })
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new TeeGpuTokenInvalidError({ token: name, reason: `its ${what} is not a JSON object` })
  return json as Record<string, unknown>
}

/**
 * Verifies a JWS compact token as NRAS signs them: ES384 (ECDSA P-384, SHA-384, the signature as
 * r‖s, 96 bytes; nvtrust's `decode_nras_token` accepts only this algorithm), by the key its `kid`
 * names, not expired. Any other algorithm (`none`, HS384 …) is refused before a key is looked up.
 * Each refusal is a `TeeGpuTokenInvalidError`; a key set that cannot be had throws what `keyFor` does.
 */
export async function verifyEs384Jwt({ token, name, keyFor, now }: VerifyEs384JwtParameters): Promise<VerifyEs384JwtReturnType> {
  const invalid = (reason: string) => new TeeGpuTokenInvalidError({ token: name, reason })
  const parts = token.split('.')
  if (parts.length !== 3) throw invalid('it is not a JWS compact token (three parts)')
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
  const header = decodeJson(name, headerPart, 'header')
  if (header.alg !== 'ES384') throw invalid(`its algorithm is ${quoteUntrustedText(String(header.alg).slice(0, 20))}, not ES384`)
  if (typeof header.kid !== 'string') throw invalid('its header names no key id (kid)')
  const key = await keyFor(header.kid)
  if (key === undefined) throw invalid(`its key id ${quoteUntrustedText(header.kid.slice(0, 100))} is not in the verifier's key set`)
  const signature = Buffer.from(signaturePart, 'base64url')
  const signed = Buffer.from(`${headerPart}.${payloadPart}`, 'ascii')
  if (signature.length !== 96 || !verify('sha384', signed, { key, dsaEncoding: 'ieee-p1363' }, signature)) throw invalid('its signature is not by that key')
  const claims = decodeJson(name, payloadPart, 'payload')
  if (typeof claims.exp === 'number' && claims.exp * 1_000 + leewayMs < now.getTime()) throw invalid(`it expired at ${new Date(claims.exp * 1_000).toISOString()}`)
  if (typeof claims.nbf === 'number' && claims.nbf * 1_000 - leewayMs > now.getTime()) throw invalid(`it is not valid before ${new Date(claims.nbf * 1_000).toISOString()}`)
  return claims
}
