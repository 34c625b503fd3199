import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { RateLimitedError } from '../../errors/http.ts'

export type RateLimitSettings = {
  /** Requests one client may send per window; 0 for no limit. */
  max: number
  /** The window `max` counts in (default one minute: `--rate-limit` is requests per minute). */
  windowMs?: number | undefined
}

export type AddRateLimitParameters = RateLimitSettings & {
  /** Clients whose window is kept at once; the oldest is forgotten beyond (the plugin's LRU). */
  clients?: number | undefined
  /**
   * Route paths outside the limit, as registered (`/healthz`): a load balancer or Prometheus that
   * shares an address with busy traffic (a NAT, the proxy in front) must still read them. They
   * stay under the connection cap.
   */
  exemptPaths?: readonly string[] | undefined
}

/**
 * Limits requests per client with `@fastify/rate-limit` (a fixed window per client, kept in
 * memory): the client is `request.ip`, the socket's address, or the forwarded one when the
 * request comes through a `--trust-proxy` address; an IPv6 one counts by its /64 (the plugin's
 * `ipv6Subnet`, as clientKeyOf does for the connection cap). A root `onRequest` hook, so every
 * path is limited, unknown ones and 404s included, before any handler runs, but for the
 * `exemptPaths`, which are matched by route so that no spelling of the URL moves a request in or
 * out. A refused request throws a RateLimitedError, which the app's error handler answers 429 with
 * its Retry-After and RateLimit headers (see toErrorReply); the plugin's own headers are off, as
 * they are the older draft's.
 */
export function addRateLimit(app: FastifyInstance, { max, windowMs = 60_000, clients = 100_000, exemptPaths = [] }: AddRateLimitParameters): void {
  if (max === 0) return
  const windowSeconds = Math.ceil(windowMs / 1000)
  const off = { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': false } as const
  const exempt = new Set(exemptPaths)
  app
    .register(rateLimit, {
      global: false,
      max,
      timeWindow: windowMs,
      cache: clients,
      addHeaders: off,
      addHeadersOnExceeding: off,
      allowList: (request: FastifyRequest) => exempt.has(request.routeOptions.url ?? ''),
      errorResponseBuilder: (_request, { max: limit, ttl }) =>
        new RateLimitedError({ limit, windowSeconds, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) }),
    })
    .after((error) => {
      if (error) throw error
      app.addHook('onRequest', app.rateLimit())
    })
}
