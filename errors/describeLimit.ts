import { formatEther } from 'viem'

/**
 * How a refusal names a limit: the variable, the wei and native-token figures, and whether it is
 * the default the person never set (so they know the variable exists).
 */
export function describeLimit(variable: string, wei: bigint, isDefault: boolean): string {
  const amount = `${wei} wei (${formatEther(wei)} native token)`
  return isDefault ? `${variable} is not set, so run keeps its default limit of ${amount}` : `${variable} allows ${amount}`
}
