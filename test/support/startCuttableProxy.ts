import { connect, createServer, type AddressInfo, type Socket } from 'node:net'

export type StartCuttableProxyParameters = {
  /** `http://host:port` of the server behind the proxy. */
  target: string
}

/** One HTTP request that went through the proxy, as its head was read on the way. */
export type ProxiedRequest = { method: string; path: string; headers: Readonly<Record<string, string>> }

export type CuttableProxy = {
  /** `http://127.0.0.1:<port>`: what the client is given instead of the target. */
  url: string
  /** Every request head that passed, in order (read from the bytes, not parsed as a proxy would). */
  requests: ProxiedRequest[]
  /** Drops every open connection both ways at once, and drops each new one as it comes until `accept`. */
  cut(): void
  accept(): void
  /** Connections dropped on arrival while cut. */
  readonly refused: number
  stop(): Promise<void>
}

/**
 * A TCP pass-through on 127.0.0.1 that a test can cut, as a load balancer restarting or a network
 * partition would: the client sees its connection end mid-stream, then every new one dropped.
 */
export async function startCuttableProxy({ target }: StartCuttableProxyParameters): Promise<CuttableProxy> {
  const { hostname, port } = new URL(target)
  const open = new Set<Socket>()
  const requests: ProxiedRequest[] = []
  let cut = false
  let refused = 0
  const server = createServer((client) => {
    if (cut) {
      refused += 1
      return void client.destroy()
    }
    const upstream = connect({ host: hostname, port: Number(port) })
    for (const socket of [client, upstream]) {
      open.add(socket)
      socket.on('close', () => open.delete(socket))
      // A cut peer errors the other side's writes (EPIPE, ECONNRESET): both are torn down anyway.
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.on('data', (chunk: Buffer) => requests.push(...readRequestHeads(chunk.toString('latin1'))))
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port: proxyPort } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${proxyPort}`,
    requests,
    cut() {
      cut = true
      for (const socket of open) socket.destroy()
    },
    accept() {
      cut = false
    },
    get refused() {
      return refused
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** The request heads that start in a chunk a client sent (a GET's head comes whole in one chunk on loopback). */
function readRequestHeads(text: string): ProxiedRequest[] {
  const heads: ProxiedRequest[] = []
  for (const [, method = '', path = '', lines = ''] of text.matchAll(/(?<=^|\r\n\r\n)([A-Z]+) (\S+) HTTP\/1\.1\r\n((?:[^\r\n]+\r\n)*)\r\n/g)) {
    const headers: Record<string, string> = {}
    for (const line of lines.split('\r\n')) {
      const colon = line.indexOf(':')
      if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    heads.push({ method, path, headers })
  }
  return heads
}
