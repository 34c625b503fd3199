import { TeeGpuEvidenceMalformedError } from '../errors/tee.ts'

/** One GPU's evidence: its certificate chain and its signed attestation report, base64 as the GPU gave them. */
export type NvidiaGpuEvidence = { certificate: string; evidence: string; arch?: string }

/**
 * The GPU evidence a broker serves as `nvidia_payload`, the body NRAS's `POST /v3/attest/gpu`
 * takes: nvtrust's `attest_gpu_remote.build_payload` and NEAR's private-ml-sdk
 * (`vllm-proxy/src/app/quote/quote.py`, `build_payload`) write `{nonce, evidence_list, arch}`,
 * each entry `{certificate, evidence}` from `cc_admin.collect_gpu_evidence_remote` (Phala's
 * verifier also sees an `arch` per entry).
 */
export type NvidiaPayload = {
  /** 64 lowercase hex digits, no 0x: the nonce the GPUs signed into their reports. */
  nonce: string
  evidenceList: NvidiaGpuEvidence[]
  /** `HOPPER` or `BLACKWELL` today; passed to NRAS as served. */
  arch: string
}

export type ReadNvidiaPayloadErrorType = TeeGpuEvidenceMalformedError

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const isText = (value: unknown): value is string => typeof value === 'string' && value !== ''
// An arch is a word (HOPPER); anything else is not sent on to NRAS.
const isArch = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_]{1,32}$/.test(value)

/** Eight GPUs to a server; a list far longer is not a server's evidence. */
const maxGpus = 64

function readEntry(entry: unknown, index: number): NvidiaGpuEvidence {
  if (!isObject(entry) || !isText(entry.certificate) || !isText(entry.evidence)) {
    throw new TeeGpuEvidenceMalformedError({ reason: `evidence_list[${index}] is not an object with a certificate and an evidence string` })
  }
  if (entry.arch !== undefined && !isArch(entry.arch)) throw new TeeGpuEvidenceMalformedError({ reason: `evidence_list[${index}].arch is not a word` })
  return { certificate: entry.certificate, evidence: entry.evidence, ...(entry.arch === undefined ? {} : { arch: entry.arch }) }
}

/** Reads `nvidia_payload` (the JSON text the report parser kept), keeping only the fields NRAS takes. */
export function readNvidiaPayload(text: string): NvidiaPayload {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    throw new TeeGpuEvidenceMalformedError({ reason: 'it is not JSON', cause })
  }
  if (!isObject(json)) throw new TeeGpuEvidenceMalformedError({ reason: 'it is not a JSON object' })
  const { nonce, evidence_list: list, arch } = json
  const hex = typeof nonce === 'string' ? nonce.replace(/^0x/i, '') : ''
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new TeeGpuEvidenceMalformedError({ reason: 'its nonce is not 32 bytes of hex' })
  if (!Array.isArray(list) || list.length === 0 || list.length > maxGpus) {
    throw new TeeGpuEvidenceMalformedError({ reason: `its evidence_list is not a list of 1 to ${maxGpus} GPUs' evidence` })
  }
  if (!isArch(arch)) throw new TeeGpuEvidenceMalformedError({ reason: 'its arch is not a word such as HOPPER' })
  return { nonce: hex.toLowerCase(), evidenceList: list.map(readEntry), arch }
}
