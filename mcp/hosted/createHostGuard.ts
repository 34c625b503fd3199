import { BlockList, isIP } from 'node:net'
import type { FastifyRequest, onRequestHookHandler } from 'fastify'
import { jsonRpcErrorCodes, sendJsonRpcError } from './sendJsonRpcError.ts'

export type CreateHostGuardParameters = {
  /** The address the server listens on. */
  bindHost: string
  /** Host names accepted besides the loopback ones (the public name behind a proxy). */
  allowedHosts: readonly string[]
  /** Origins accepted besides the loopback ones, e.g. `https://app.example`. */
  allowedOrigins: readonly string[]
}

/** An `onRequest` hook, or undefined when nothing is checked (a public bind with nothing configured). */
export type CreateHostGuardReturnType = onRequestHookHandler | undefined

/**
 * DNS-rebinding protection, as the MCP transport spec asks of a local server: when bound to a
 * loopback address, a request must name a loopback host (or an allowed one) in `Host`, and a
 * browser's `Origin`, when sent, must be a loopback or allowed origin; otherwise 403 with the SDK's
 * wording. A loopback name must also name the port the connection came in on: a `Host` with another
 * port reached this server through something that forwards ports, which a page of another origin
 * may be using. Behind a proxy, `--allowed-hosts` and `--allowed-origins` name the public host (any
 * port: the proxy's) and the pages' origins, and set on any bind they are checked there too; with
 * `--trust-proxy` the host is the one the proxy forwards in X-Forwarded-Host.
 */
export function createHostGuard({ bindHost, allowedHosts, allowedOrigins }: CreateHostGuardParameters): CreateHostGuardReturnType {
  const loopback = isLoopback(bindHost)
  const hosts = new Set(allowedHosts.map((host) => host.toLowerCase()))
  const origins = new Set(allowedOrigins.map((origin) => origin.toLowerCase()))
  const checkHosts = loopback || allowedHosts.length > 0
  const checkOrigins = loopback || allowedOrigins.length > 0
  if (!checkHosts && !checkOrigins) return undefined

  const refuse = (reply: Parameters<onRequestHookHandler>[1], message: string): void => {
    sendJsonRpcError(reply, { status: 403, code: jsonRpcErrorCodes.serverError, message })
  }
  return function guardHostAndOrigin(request, reply, done) {
    // The public name behind a trusted proxy (X-Forwarded-Host from its address only), else Host.
    const host = request.host
    if (checkHosts) {
      if (host === '') return refuse(reply, 'Missing Host header')
      const url = parseUrl(`http://${host}`)
      const hostname = url?.hostname.toLowerCase()
      if (url === undefined || hostname === undefined || !(hosts.has(hostname) || (loopback && isLoopback(hostname))))
        return refuse(reply, `Invalid Host: ${hostname ?? host}`)
      const port = request.socket.localPort
      if (!hosts.has(hostname) && portOf(url, request) !== port) return refuse(reply, `Invalid Host: ${host}: this server listens on port ${port}`)
    }
    const origin = request.headers.origin
    if (checkOrigins && origin !== undefined) {
      const hostname = parseUrl(origin)?.hostname
      const allowed = origins.has(origin.toLowerCase()) || (loopback && hostname !== undefined && isLoopback(hostname))
      if (!allowed) return refuse(reply, `Invalid Origin header: ${origin}`)
    }
    done()
  }
}

function parseUrl(url: string): URL | undefined {
  return URL.canParse(url) ? new URL(url) : undefined
}

/** The port a `Host` names; without one, the scheme's (80, or 443 over TLS). */
function portOf(url: URL, request: FastifyRequest): number {
  if (url.port !== '') return Number(url.port)
  return 'encrypted' in request.socket && request.socket.encrypted === true ? 443 : 80
}

/** 127.0.0.0/8 and ::1, in any spelling: IPv4-mapped (`::ffff:127.0.0.1`), long or compressed. */
const loopbackAddresses = new BlockList()
loopbackAddresses.addSubnet('127.0.0.0', 8, 'ipv4')
loopbackAddresses.addAddress('::1', 'ipv6')

/** `localhost` or a loopback address: reachable only from this machine, so a browser page is the danger. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (bare === 'localhost') return true
  const family = isIP(bare)
  return family !== 0 && loopbackAddresses.check(bare, family === 4 ? 'ipv4' : 'ipv6')
}
