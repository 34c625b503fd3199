import { createHash, createPublicKey } from 'node:crypto'
import { type Hex, hexToBytes } from 'viem'
import { type TeeRoot, signRaw } from './createTeeRoot.ts'

export type MakeTdxQuoteParameters = {
  /** The 64 bytes the guest binds (its signing key, a nonce). */
  reportData: Uint8Array
  /** Default: production TD with SEPT_VE_DISABLE (dstack's). Bit 0 of the first byte is DEBUG. */
  tdAttributes?: Hex | undefined
  mrTd?: Hex | undefined
  mrConfigId?: Hex | undefined
  rtmrs?: readonly [Hex, Hex, Hex, Hex] | undefined
}

const u16 = (n: number) => Uint8Array.of(n & 0xff, n >> 8)
const u32 = (n: number) => Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24)
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]))
const zeros = (n: number) => new Uint8Array(n)
const sized = (value: Hex | undefined, length: number) => (value === undefined ? zeros(length) : hexToBytes(value, { size: length }))
/** Intel's QE vendor id, as in every production quote. */
const intelQeVendorId = hexToBytes('0x939a7233f79c4ca9940a0db3957f0607')

/** The quoting enclave's report (an SGX report, 384 bytes) that vouches for the attestation key. */
function qeReport(root: TeeRoot, reportData: Uint8Array): Uint8Array {
  return concat(
    zeros(16), u32(0), zeros(28),
    Uint8Array.of(0x11, ...zeros(15)),
    zeros(32), zeros(32), root.platform.qeMrSigner, zeros(96),
    u16(2), u16(4), zeros(60), reportData,
  )
}

/**
 * A TDX quote (version 4) of a TD with the given registers, signed the way Intel's quoting enclave
 * signs: the attestation key signs header and TD report; the QE report binds that key and is signed
 * by the platform's PCK key; the PCK chain of `root` rides in the certification data.
 */
export function makeTdxQuote(root: TeeRoot, { reportData, tdAttributes = '0x0000001000000000', mrTd, mrConfigId, rtmrs }: MakeTdxQuoteParameters): Uint8Array {
  const header = concat(u16(4), u16(2), u32(0x81), u16(0), u16(root.platform.pceSvn), intelQeVendorId, zeros(20))
  const body = concat(
    root.platform.teeTcbSvn, zeros(48), zeros(48), zeros(8), sized(tdAttributes, 8), zeros(8),
    sized(mrTd, 48), sized(mrConfigId, 48), zeros(48), zeros(48),
    ...[0, 1, 2, 3].map((i) => sized(rtmrs?.[i], 48)),
    reportData,
  )
  const attestationPublic = new Uint8Array(createPublicKey(root.attestationKey).export({ format: 'der', type: 'spki' })).subarray(-64)
  const qeAuthData = zeros(32)
  const qeBinding = concat(new Uint8Array(createHash('sha256').update(concat(attestationPublic, qeAuthData)).digest()), zeros(32))
  const report = qeReport(root, qeBinding)
  const chain = new TextEncoder().encode(root.pckChainPem)
  const qeCertificationData = concat(report, signRaw(root.pck.key, report), u16(qeAuthData.length), qeAuthData, u16(5), u32(chain.length), chain)
  const signed = concat(header, body)
  const authData = concat(signRaw(root.attestationKey, signed), attestationPublic, u16(6), u32(qeCertificationData.length), qeCertificationData)
  return concat(signed, u32(authData.length), authData)
}
