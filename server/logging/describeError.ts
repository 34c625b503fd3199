/** An error's first line for a log field (viem's messages go on with details and a docs link). */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error)
  return message.split('\n')[0] ?? message
}
