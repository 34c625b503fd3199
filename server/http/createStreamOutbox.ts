import type { ServerResponse } from 'node:http'

export type StreamOutbox = {
  /** Sends a frame after those before it; over the bound of unsent text, the connection is cut instead. */
  push(frame: string): void
}

export type CreateStreamOutboxParameters = {
  /** Sent first, at the pace the client reads: the replay (text the feed already keeps, not copied). */
  replay: readonly string[]
  /** Live text that may wait unsent behind a slow reader before the connection is cut. */
  maxUnsentChars: number
  /** Told when the bound was passed, just before the cut. */
  onOverflow: () => void
}

/**
 * The writing side of one stream: frames go straight to the socket while it takes them, and wait
 * in order while it does not (Node's `writableNeedDrain`, above the socket's high-water mark). A
 * client that does not read lets live frames pile up only to `maxUnsentChars`; then the
 * connection is destroyed, and the client resumes from the last id it read.
 */
export function createStreamOutbox(response: ServerResponse, { replay, maxUnsentChars, onOverflow }: CreateStreamOutboxParameters): StreamOutbox {
  let replayed = 0
  let waiting: string[] = []
  let sent = 0
  let waitingChars = 0
  const pump = (): void => {
    while (!response.writableNeedDrain && !response.destroyed) {
      let frame: string
      if (replayed < replay.length) frame = replay[replayed++] as string
      else if (sent < waiting.length) {
        frame = waiting[sent++] as string
        waitingChars -= frame.length
      } else break
      response.write(frame)
    }
    if (sent >= waiting.length && sent > 0) {
      waiting = []
      sent = 0
    }
  }
  response.on('drain', pump)
  pump()
  return {
    push(frame) {
      if (response.destroyed) return
      if (waiting.length === sent && replayed >= replay.length && !response.writableNeedDrain) {
        response.write(frame)
        return
      }
      waiting.push(frame)
      waitingChars += frame.length
      if (waitingChars > maxUnsentChars) {
        onOverflow()
        response.destroy()
        return
      }
      pump()
    },
  }
}
