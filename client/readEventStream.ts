import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser'
import { EventTooLongError } from '../errors/client.ts'

/** What a Server-Sent Events body holds: a dispatched event, or a `retry:` field (milliseconds). */
export type EventStreamItem = { type: 'event'; message: EventSourceMessage } | { type: 'retry'; retry: number }

export type ReadEventStreamParameters = {
  /** Called on every chunk read, comments included: the stream is alive. */
  onChunk?: () => void
  /** Characters an event may hold before the stream is refused; default 4 Mi. */
  maxEventLength?: number
}

export type ReadEventStreamReturnType = AsyncGenerator<EventStreamItem, void, undefined>

/**
 * The events of a `text/event-stream` body as they arrive, parsed by `eventsource-parser` (the
 * WHATWG rules: fields, multi-line `data`, comments, any line ending). An event is yielded once
 * its blank line arrives: one cut off in the middle is dropped, so it is sent again after a resume
 * from the last id. Ends when the body ends; stopping early cancels the body.
 */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
  { onChunk, maxEventLength = 4 * 1024 * 1024 }: ReadEventStreamParameters = {},
): ReadEventStreamReturnType {
  const items: EventStreamItem[] = []
  let tooLong: ParseError | undefined
  const parser = createParser({
    onEvent: (message) => items.push({ type: 'event', message }),
    onRetry: (retry) => items.push({ type: 'retry', retry }),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') tooLong = error
    },
    maxBufferSize: maxEventLength,
  })
  const reader = body.getReader()
  const decoder = new TextDecoder()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      onChunk?.()
      parser.feed(decoder.decode(value, { stream: true }))
      if (tooLong !== undefined) throw new EventTooLongError({ maxEventLength, cause: tooLong })
      while (items.length > 0) yield items.shift() as EventStreamItem
    }
  } finally {
    reader.cancel().catch(() => undefined)
  }
}
