import { hexToBytes, keccak256, type Hex } from 'viem'

/** The three bits a value sets in a 2048-bit logs bloom (yellow paper, M3:2048), counted from the last byte's lowest bit. */
export function toBloomBits(value: Hex): readonly [number, number, number] {
  const hash = hexToBytes(keccak256(value))
  const bit = (index: number): number => (((hash[index] as number) << 8) | (hash[index + 1] as number)) & 2047
  return [bit(0), bit(2), bit(4)]
}

/**
 * Whether a block's `logsBloom` may hold a log with this address or topic (bits from
 * toBloomBits). False means certainly not; true may be a false positive.
 */
export function isInBloom(bloom: Uint8Array, bits: readonly number[]): boolean {
  for (const bit of bits) {
    const byte = bloom[bloom.length - 1 - (bit >> 3)]
    if (byte === undefined || (byte & (1 << (bit & 7))) === 0) return false
  }
  return true
}
