import type { FeedEventType } from '../../contract/feed.ts'

/** One Server-Sent Event: its `id:` (none for a reorg and the corrections a resumed stream gets), `event:` and one-line JSON `data:`. */
export function toSseFrame({ id, event, data }: { id?: string | undefined; event: FeedEventType; data: unknown }): string {
  // JSON.stringify escapes every line break inside strings, so the data is one line whatever the text.
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
}
