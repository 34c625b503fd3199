/** An error's first line: the seller's log keeps one line per event. */
export function describeFirstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}
