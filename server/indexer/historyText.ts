/** A job's history as the self-check's messages name it: its event names, oldest first. */
export function historyText(events: readonly { event: string }[]): string {
  return events.map(({ event }) => event).join(', ') || 'no events'
}
