import { type NrasKeyCache, createNrasKeyCache } from './createNrasKeyCache.ts'
import { fetchNrasKeys } from './fetchNrasKeys.ts'

export type CreateGpuVerifierParameters = {
  /** The operator's NRAS, e.g. `https://nras.attestation.nvidia.com` (config's `teeGpuVerifier`). */
  url: string
  /** Reach a non-public NRAS: the devnet's, never by default (NVIDIA's is public). */
  allowPrivate: boolean
  /** Per request, body included. Default 30 s. */
  timeoutMs?: number | undefined
  /** Per answer. Default `defaultNrasMaxBytes`. */
  maxBytes?: number | undefined
  /** How long NRAS's key set serves. Default 1 hour. */
  keyMaxAgeMs?: number | undefined
}

/** Where GPU evidence is sent, how, and NRAS's keys, cached across checks. */
export type GpuVerifier = {
  baseUrl: string
  allowPrivate: boolean
  timeoutMs: number
  maxBytes: number
  keys: NrasKeyCache
}

/**
 * 1 MiB per answer. NRAS answers an overall token and one token per GPU, each 1–3 KB (NEAR's
 * published example is 3.6 KB for one GPU), and a key set of a few certificates: 1 MiB is far
 * above eight GPUs' answer while bounding what a verifier can make us hold.
 */
export const defaultNrasMaxBytes = 1_024 * 1_024
// nvtrust's attest_gpu_remote waits 30 s: NRAS fetches RIMs and OCSP answers before it answers.
const defaultTimeoutMs = 30_000

/** A GPU verifier for one NRAS. A URL given as the GPU endpoint itself is taken for its base. */
export function createGpuVerifier({ url, allowPrivate, timeoutMs = defaultTimeoutMs, maxBytes = defaultNrasMaxBytes, keyMaxAgeMs }: CreateGpuVerifierParameters): GpuVerifier {
  const baseUrl = url.replace(/\/+$/, '').replace(/\/v3\/attest\/gpu$/, '')
  const keys = createNrasKeyCache({ fetchKeys: () => fetchNrasKeys({ baseUrl, allowPrivate, timeoutMs, maxBytes }), maxAgeMs: keyMaxAgeMs })
  return { baseUrl, allowPrivate, timeoutMs, maxBytes, keys }
}
