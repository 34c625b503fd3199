import type { FastifyHttpOptions } from 'fastify'
import type { Server } from 'node:http'
import type { ServingOptions } from './readServingOptions.ts'

export type { ServingOptions }

export type ToFastifyServingReturnType = Pick<FastifyHttpOptions<Server>, 'trustProxy'>

/**
 * The serving options as Fastify takes them. Typed as the plain-HTTP options: with `https` Fastify
 * makes an `https.Server`, which has every method of `http.Server` our apps and hooks call.
 */
export function toFastifyServing(serving: ServingOptions | undefined): ToFastifyServingReturnType {
  if (serving === undefined) return {}
  const { https, trustProxy } = serving
  return { trustProxy, ...(https === null ? {} : { https }) } as ToFastifyServingReturnType
}
