import type { FastifyHttpOptions } from 'fastify'
import type { Server } from 'node:http'
import type { ServingOptions } from './readServingOptions.ts'

export type { ServingOptions }

export type ToFastifyServingReturnType = Pick<FastifyHttpOptions<Server>, 'trustProxy'>

/**
 * The serving options as Fastify takes them. Typed as the plain-HTTP options: with `https` Fastify
 * makes an `https.Server` (or an `Http2SecureServer`), which has the methods our apps and hooks call.
 */
export function toFastifyServing(serving: ServingOptions | undefined): ToFastifyServingReturnType {
  if (serving === undefined) return {}
  const { https, trustProxy, http2 = false } = serving
  if (https === null) return { trustProxy }
  if (http2) return { trustProxy, http2: true, https: { ...https, allowHTTP1: true } } as ToFastifyServingReturnType
  return { trustProxy, https } as ToFastifyServingReturnType
}
