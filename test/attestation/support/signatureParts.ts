import { type Hex, concatHex, hexToBytes, numberToHex, sliceHex } from 'viem'

/** The r, s and v of a 65-byte signature; v is -1 when the signature is shorter. */
export function partsOf(signature: Hex): { r: bigint; s: bigint; v: number } {
  return {
    r: BigInt(sliceHex(signature, 0, 32)),
    s: BigInt(sliceHex(signature, 32, 64)),
    v: hexToBytes(signature)[64] ?? -1,
  }
}

/** Rewrites parts of a 65-byte signature, keeping the others. */
export function withParts(signature: Hex, parts: { r?: bigint; s?: bigint; v?: number }): Hex {
  return concatHex([
    parts.r === undefined ? sliceHex(signature, 0, 32) : numberToHex(parts.r, { size: 32 }),
    parts.s === undefined ? sliceHex(signature, 32, 64) : numberToHex(parts.s, { size: 32 }),
    parts.v === undefined ? sliceHex(signature, 64, 65) : numberToHex(parts.v, { size: 1 }),
  ])
}
