import { type KeyObject, X509Certificate, createPublicKey } from 'node:crypto'
import { TeeFetchError } from '../errors/tee.ts'
import { requestTeeEndpoint } from './requestTeeEndpoint.ts'

export type FetchNrasKeysParameters = {
  baseUrl: string
  allowPrivate: boolean
  timeoutMs: number
  maxBytes: number
}

/** NRAS's signing keys by key id: P-384 public keys, the only ones an ES384 token may name. */
export type NrasKeys = ReadonlyMap<string, KeyObject>

export type FetchNrasKeysErrorType = TeeFetchError

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The key of one JWK: from its certificate (`x5c[0]`, as nvtrust's `nras_utils.decode_nras_token`
 * reads NVIDIA's keys) or, without one, from its own coordinates (`kty` EC, `crv` P-384, as
 * confidential-containers' trustee reads them). Undefined for any other key: it cannot sign ES384.
 */
function readKey(jwk: Json): KeyObject | undefined {
  try {
    const certificate = Array.isArray(jwk.x5c) && typeof jwk.x5c[0] === 'string' ? jwk.x5c[0] : undefined
    const key =
      certificate !== undefined ? new X509Certificate(Buffer.from(certificate, 'base64')).publicKey
      : jwk.kty === 'EC' && jwk.crv === 'P-384' && typeof jwk.x === 'string' && typeof jwk.y === 'string' ? createPublicKey({ key: { kty: 'EC', crv: 'P-384', x: jwk.x, y: jwk.y }, format: 'jwk' })
      : undefined
    return key?.asymmetricKeyDetails?.namedCurve === 'secp384r1' ? key : undefined
  } catch {
    return undefined
  }
}

/**
 * Fetches NRAS's key set from `{base}/.well-known/jwks.json` (nvtrust's `create_jwks_url`), over the
 * same hostile-peer request as the evidence. Its answer is trusted as NRAS's for coming from the
 * operator's NRAS URL (over https for NVIDIA's), as NVIDIA's own SDK trusts it; the certificates'
 * chain is not checked here. An answer with no usable key is a `TeeFetchError`.
 */
export async function fetchNrasKeys({ baseUrl, allowPrivate, timeoutMs, maxBytes }: FetchNrasKeysParameters): Promise<NrasKeys> {
  const url = `${baseUrl}/.well-known/jwks.json`
  const answer = await requestTeeEndpoint({ what: 'NRAS key set', url, maxBytes, timeoutMs, allowPrivate })
  const fail = (reason: string, cause?: unknown) => new TeeFetchError({ what: 'NRAS key set', url, reason, allowed: 'A JWKS with P-384 keys, each with a kid, is expected.', cause })
  let json: unknown
  try {
    json = JSON.parse((answer.body as Buffer).toString('utf8'))
  } catch (cause) {
    throw fail('its body is not JSON', cause)
  }
  const listed = isObject(json) && Array.isArray(json.keys) ? json.keys : []
  const keys = new Map<string, KeyObject>()
  for (const jwk of listed) {
    const key = isObject(jwk) && typeof jwk.kid === 'string' ? readKey(jwk) : undefined
    if (key !== undefined) keys.set((jwk as Json).kid as string, key)
  }
  if (keys.size === 0) throw fail('it holds no P-384 key with a kid')
  return keys
}
