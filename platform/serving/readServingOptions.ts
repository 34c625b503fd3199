import type { Config } from '../../config/ConfigSchema.ts'
import { readTlsCredentials, type TlsCredentials } from './readTlsCredentials.ts'

export type ServingSettings = Pick<Config, 'tlsCert' | 'tlsKey' | 'trustProxy'>

/**
 * How a server faces its clients, as Fastify options: `https` with the configured certificate (null
 * serves plain HTTP), `trustProxy` with the addresses whose X-Forwarded-* headers are believed.
 */
export type ServingOptions = {
  https: { cert: string; key: string } | null
  trustProxy: string[] | false
  /**
   * HTTP/2 beside HTTP/1.1 (ALPN) under TLS. No flag sets it: `npm run bench`'s TLS stage measures
   * it slower per request than HTTP/1.1 keep-alive for these small JSON answers (docs/benchmarks.md).
   */
  http2?: boolean | undefined
}

export type ReadServingOptionsReturnType = ServingOptions & {
  /** The certificate served, for the start line; undefined over plain HTTP. */
  certificate: Pick<TlsCredentials, 'fingerprint256' | 'validTo'> | undefined
}

/**
 * The Fastify options of the REST indexer, the hosted MCP server and the reference seller. Reads and
 * checks the certificate and key, so a bad one stops the start (TlsFileError) rather than leaving a
 * server on plain HTTP.
 */
export async function readServingOptions({ tlsCert, tlsKey, trustProxy }: ServingSettings): Promise<ReadServingOptionsReturnType> {
  const trusted = trustProxy.length === 0 ? false : [...trustProxy]
  if (tlsCert === null || tlsKey === null) return { https: null, trustProxy: trusted, certificate: undefined }
  const { cert, key, fingerprint256, validTo } = await readTlsCredentials({ certPath: tlsCert, keyPath: tlsKey })
  return { https: { cert, key }, trustProxy: trusted, certificate: { fingerprint256, validTo } }
}
