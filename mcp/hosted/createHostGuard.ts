import type { onRequestHookHandler } from 'fastify'
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

const loopbackHostnames = ['localhost', '127.0.0.1', '[::1]']

/**
 * DNS-rebinding protection, as the MCP transport spec asks of a local server: when bound to a
 * loopback address, a request must name a loopback host (or an allowed one) in `Host`, and a
 * browser's `Origin`, when sent, must be a loopback or allowed origin; otherwise 403 with the SDK's
 * wording. Behind a proxy, `--allowed-hosts` and `--allowed-origins` name the public host and the
 * pages' origins, and set on any bind they are checked there too; with `--trust-proxy` the host is
 * the one the proxy forwards in X-Forwarded-Host.
 */
export function createHostGuard({ bindHost, allowedHosts, allowedOrigins }: CreateHostGuardParameters): CreateHostGuardReturnType {
  const loopback = isLoopback(bindHost)
  const hosts = new Set([...(loopback ? loopbackHostnames : []), ...allowedHosts.map((host) => host.toLowerCase())])
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
      const hostname = hostnameOf(`http://${host}`)
      if (hostname === undefined || !hosts.has(hostname)) return refuse(reply, `Invalid Host: ${hostname ?? host}`)
    }
    const origin = request.headers.origin
    if (checkOrigins && origin !== undefined) {
      const hostname = hostnameOf(origin)
      const allowed = origins.has(origin.toLowerCase()) || (loopback && hostname !== undefined && loopbackHostnames.includes(hostname))
      if (!allowed) return refuse(reply, `Invalid Origin header: ${origin}`)
    }
    done()
  }
}

function hostnameOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined
  return new URL(url).hostname.toLowerCase()
}

/** `localhost`, 127.0.0.0/8 or ::1: reachable only from this machine, so a browser page is the danger. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare)
}
