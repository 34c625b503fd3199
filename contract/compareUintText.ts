/**
 * Orders two uints written as the contract writes them (decimal, no sign, no leading zeros)
 * without parsing them: the longer is the larger, and equal lengths compare as text.
 */
export function compareUintText(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length
  return a < b ? -1 : a > b ? 1 : 0
}
