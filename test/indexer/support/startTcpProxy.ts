import { connect, createServer, type AddressInfo, type Socket } from 'node:net'

export type StartTcpProxyParameters = {
  /** `host:port` of the node; HTTP and WebSocket alike pass through byte for byte. */
  target: { host: string; port: number }
}

export type TcpProxy = {
  /** `127.0.0.1:<port>`, to put behind `ws://` or `http://`. */
  host: string
  /** Connections accepted so far. */
  connections: () => number
  /** Destroys every open connection (a dropped WebSocket, as a restarting node or load balancer does). */
  cut: () => void
  /** While refusing, new connections are destroyed as soon as they are accepted. */
  refuse: (refusing: boolean) => void
  /** While frozen, nothing is forwarded and nothing closed: a peer that vanished silently. */
  freeze: (frozen: boolean) => void
  stop: () => Promise<void>
}

/** A TCP pass-through on 127.0.0.1 that a test can cut, refuse or freeze. */
export async function startTcpProxy({ target }: StartTcpProxyParameters): Promise<TcpProxy> {
  const open = new Set<Socket>()
  let refusing = false
  let frozen = false
  let accepted = 0

  const server = createServer((client) => {
    accepted += 1
    if (refusing) {
      client.destroy()
      return
    }
    const upstream = connect(target.port, target.host)
    for (const socket of [client, upstream]) {
      open.add(socket)
      socket.on('close', () => open.delete(socket))
      socket.on('error', () => undefined)
    }
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (!frozen) to.write(chunk)
      })
    forward(client, upstream)
    forward(upstream, client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  const cut = (): void => {
    for (const socket of open) socket.destroy()
  }
  return {
    host: `127.0.0.1:${port}`,
    connections: () => accepted,
    cut,
    refuse: (next) => {
      refusing = next
    },
    freeze: (next) => {
      frozen = next
    },
    stop: async () => {
      cut()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
