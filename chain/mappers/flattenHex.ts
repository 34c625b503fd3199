/**
 * viem's decoder builds hex one byte at a time, which V8 keeps as a rope of one node per byte
 * (a bytes32 costs ~0.9 KB, a signature ~2 KB); lowercasing (a no-op on viem's lowercase hex)
 * flattens it, so a stored record's strings cost about their length.
 */
export function flattenHex<value extends `0x${string}`>(hex: value): value {
  return hex.toLowerCase() as value
}
