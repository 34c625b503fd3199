import { type RequestListener, type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type StartedServer = { url: string; server: Server; close: () => Promise<void> }

/** A loopback HTTP server for one test file: tests have no internet, and play the peer here. */
export async function startHttpServer(listener: RequestListener): Promise<StartedServer> {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
