import type { Server } from 'node:net'
import { clientKeyOf } from './clientKeyOf.ts'

export type CapConnectionsPerAddressParameters = {
  /** Open connections one client address (an IPv6 one's /64: clientKeyOf) may hold; 0 for no cap. */
  max: number
  /** Addresses never capped: the trusted proxies, which carry every client's connections. */
  exempt: (address: string) => boolean
}

/**
 * Keeps one client address from taking every place under the server's `maxConnections`: a
 * connection over its address's cap is destroyed at once, before a byte is read or written, as
 * Node does over the global cap. No answer is written: the connection may be TLS, whose handshake
 * has not begun, and an abuser gets nothing for its sockets. The forwarded address behind a proxy
 * is not known when the connection opens, so the proxy itself is exempt and the per-request
 * limit (addRateLimit) is what tells its clients apart.
 */
export function capConnectionsPerAddress(server: Server, { max, exempt }: CapConnectionsPerAddressParameters): void {
  if (max === 0) return
  const open = new Map<string, number>()
  server.on('connection', (socket) => {
    const address = socket.remoteAddress
    if (address === undefined || exempt(address)) return
    const client = clientKeyOf(address)
    const count = (open.get(client) ?? 0) + 1
    if (count > max) {
      socket.destroy()
      return
    }
    open.set(client, count)
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1
      if (left === 0) open.delete(client)
      else open.set(client, left)
    })
  })
}
