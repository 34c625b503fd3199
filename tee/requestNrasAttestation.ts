import { TeeFetchError } from '../errors/tee.ts'
import type { NvidiaPayload } from './readNvidiaPayload.ts'
import { requestTeeEndpoint } from './requestTeeEndpoint.ts'

export type RequestNrasAttestationParameters = {
  /** The NRAS base URL, e.g. `https://nras.attestation.nvidia.com`. */
  baseUrl: string
  payload: NvidiaPayload
  allowPrivate: boolean
  timeoutMs: number
  maxBytes: number
}

/** NRAS's answer: the overall EAT and one detached EAT per GPU, keyed `GPU-0`, `GPU-1`, … */
export type NrasTokens = { overall: string; gpus: Record<string, string> }

export type RequestNrasAttestationReturnType = { tokens: NrasTokens; url: string }

export type RequestNrasAttestationErrorType = TeeFetchError

// Three base64url segments: anything else is not a JWT, and so not an answer NRAS gives.
const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Sends the GPU evidence to NRAS's `POST {base}/v3/attest/gpu` (the URL and body of nvtrust's
 * `attest_gpu_remote.attest` and NEAR's `attestation_verifier.py`), as to any peer: a deadline, a
 * byte cap, no redirects, non-public addresses refused unless allowed. NRAS answers a JSON array,
 * `[["JWT", <overall EAT>], {"GPU-0": <EAT>, …}]` (nvtrust's `unified_eat_parser`). No answer, or
 * any other, is a `TeeFetchError`: NVIDIA's outage is not the provider's failure.
 */
export async function requestNrasAttestation({ baseUrl, payload, allowPrivate, timeoutMs, maxBytes }: RequestNrasAttestationParameters): Promise<RequestNrasAttestationReturnType> {
  const url = `${baseUrl}/v3/attest/gpu`
  const body = JSON.stringify({ nonce: payload.nonce, evidence_list: payload.evidenceList, arch: payload.arch })
  const answer = await requestTeeEndpoint({ what: 'NRAS attestation', url, body, maxBytes, timeoutMs, allowPrivate })
  return { tokens: readNrasTokens(url, answer.body as Buffer), url }
}

function readNrasTokens(url: string, body: Buffer): NrasTokens {
  const garbage = (reason: string, cause?: unknown) =>
    new TeeFetchError({ what: 'NRAS attestation', url, reason, allowed: 'NRAS\'s answer, [["JWT", <token>], {"GPU-0": <token>, …}], is expected.', cause })
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch (cause) {
    throw garbage('its body is not JSON', cause)
  }
  if (!Array.isArray(json) || json.length < 2) throw garbage('its body is not a list of the overall token and the GPUs\' tokens')
  const [overall, gpus] = json as [unknown, unknown]
  if (!Array.isArray(overall) || overall[0] !== 'JWT' || typeof overall[1] !== 'string' || !jwtShape.test(overall[1])) throw garbage('its first item is not ["JWT", <token>]')
  if (!isObject(gpus) || Object.keys(gpus).length === 0) throw garbage('its second item is not an object of GPU tokens')
  for (const [gpu, token] of Object.entries(gpus)) {
    if (typeof token !== 'string' || !jwtShape.test(token) || !/^[A-Za-z0-9_-]{1,32}$/.test(gpu)) throw garbage('a GPU token is not a JWT under a GPU name')
  }
  return { overall: overall[1], gpus: gpus as Record<string, string> }
}
