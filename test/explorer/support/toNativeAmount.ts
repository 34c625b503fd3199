/**
 * Wei as a person reads it in a token of 18 decimals: whole part, then the fraction without
 * trailing zeros (written here by hand, so the check does not share the page's formatting code).
 */
export function toNativeAmount(wei: string, symbol: string): string {
  const digits = wei.padStart(19, '0')
  const whole = digits.slice(0, -18).replace(/^0+(?=\d)/, '')
  const fraction = digits.slice(-18).replace(/0+$/, '')
  return `${fraction === '' ? whole : `${whole}.${fraction}`} ${symbol}`
}
