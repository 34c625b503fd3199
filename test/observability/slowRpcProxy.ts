import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'

export type SlowRpcProxy = { url: string; close: () => Promise<void> }

/**
 * Forwards every HTTP request to `target` after `delayMs`, so a back-fill over it takes long enough
 * to be watched while it runs.
 */
export async function startSlowRpcProxy({ target, delayMs }: { target: string; delayMs: number }): Promise<SlowRpcProxy> {
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      setTimeout(() => {
        const forward = httpRequest(target, { method: incoming.method, headers: { 'content-type': 'application/json' } }, (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json' })
          answer.pipe(outgoing)
        })
        forward.on('error', () => outgoing.destroy())
        forward.end(Buffer.concat(chunks))
      }, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
