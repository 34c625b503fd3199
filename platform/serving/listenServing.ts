import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { ServingSettings } from './readServingOptions.ts'
import { watchTlsCredentials, type SecureServer } from './watchTlsCredentials.ts'

/** The two lines a reload writes; a pino logger is one. */
export type ServingLogger = {
  info: (fields: object, message: string) => void
  warn: (fields: object, message: string) => void
}

export type ListenServingParameters = {
  host: string
  port: number
  /** The settings the app was built with (see readServingOptions): with TLS, its files are watched. */
  settings: ServingSettings
  logger?: ServingLogger | undefined
  /** How often the certificate files are looked at (see watchTlsCredentials). */
  tlsWatchIntervalMs?: number | undefined
}

export type ListenServingReturnType = {
  /** Where the app answers, `https://` under TLS, e.g. `https://127.0.0.1:8080`. */
  url: string
  /** Stops watching the certificate (nothing to stop over plain HTTP). */
  unwatch: () => void
}

/**
 * Listens, and under TLS keeps the certificate fresh: a renewed pair on disk, or SIGHUP, is served
 * to new connections without a restart (see watchTlsCredentials).
 *
 * A host name is bound at its first address only. Given a name with several (`localhost`: 127.0.0.1
 * and ::1), Fastify would answer the others on servers it makes at `listen`, which hardenServer
 * never saw: Node's own 60 s headers timeout and no connection caps.
 */
export async function listenServing(
  app: FastifyInstance,
  { host, port, settings: { tlsCert, tlsKey }, logger, tlsWatchIntervalMs }: ListenServingParameters,
): Promise<ListenServingReturnType> {
  const address = isIP(host) === 0 ? (await lookup(host)).address : host
  const url = await app.listen({ host: address, port })
  if (tlsCert === null || tlsKey === null) return { url, unwatch: () => undefined }
  // Built with Fastify's `https` option, so the server is a TLS one whatever the app's type says.
  const unwatch = watchTlsCredentials(app.server as unknown as SecureServer, {
    certPath: tlsCert,
    keyPath: tlsKey,
    intervalMs: tlsWatchIntervalMs,
    onReload: ({ fingerprint256, validTo }) => logger?.info({ url, fingerprint256, validTo }, 'tls certificate reloaded'),
    onError: (error) => logger?.warn({ url, err: error.message }, 'tls certificate not reloaded, serving the previous one'),
  })
  return { url, unwatch }
}
