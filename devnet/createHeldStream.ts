import { Writable } from 'node:stream'

export type HeldStream = {
  stream: Writable
  /** Writes what was held, then passes every later write straight through. */
  release: () => void
}

/**
 * A stream that holds what is written to it until `release`: `npm start` logs while its
 * components start, and those lines follow the report, whose first URL is the one to open.
 */
export function createHeldStream(target: NodeJS.WriteStream): HeldStream {
  let held: Buffer[] | undefined = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      // Done at once, so a line written just before the process exits is already out.
      if (held === undefined) target.write(chunk)
      else held.push(chunk)
      done()
    },
  })
  return {
    stream,
    release() {
      if (held === undefined) return
      for (const chunk of held) target.write(chunk)
      held = undefined
    },
  }
}
