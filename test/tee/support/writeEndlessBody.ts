import type { ServerResponse } from 'node:http'

/** A hostile peer's 200 whose JSON body never ends: spaces, 64 KiB at a time, as fast as the reader takes them. */
export function writeEndlessBody(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' })
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  const write = () => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', write)
  }
  write()
}
