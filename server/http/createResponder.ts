import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { compressBody } from './compressBody.ts'
import { createBodyCache, type CachedBody } from './createBodyCache.ts'
import { isNotModified } from './isNotModified.ts'
import { negotiateEncoding, type NegotiateEncodingReturnType } from './negotiateEncoding.ts'

/** What a route answers, in the order the responder needs it. */
export type Representation = {
  /**
   * The store version the body reflects: the same version, the same body, so it is the ETag and
   * the key of a kept body. Undefined for a body that changes with time or is an error.
   */
  version: number | undefined
  contentType: string
  /** Builds and serializes the answer; not called for a 304 or a kept body. */
  build: () => { status: number; body: string }
}

export type Responder = (request: FastifyRequest, reply: FastifyReply, representation: Representation) => FastifyReply | Promise<FastifyReply>

export type CreateResponderParameters = {
  /** Bound on the bytes of serialized bodies kept (see createBodyCache). */
  cacheMaxBytes?: number
}

/** Bodies this small are sent as they are: compressing them saves less than it costs. */
const compressFrom = 1024

/**
 * Bodies this large are kept per URL and version (a seller's record, long job lists, the API
 * reference page): building one costs milliseconds, sending a kept one almost nothing. Smaller
 * bodies are built for every request.
 */
const keepFrom = 256 * 1024

/**
 * Sends every answer of the API: a weak ETag made of a random per-app epoch and the store version
 * (no hashing of bodies, and tags from an earlier process never match), a 304 before anything is
 * built when `If-None-Match` names it, and the body compressed with the client's preferred coding
 * once it is over 1 KB. `Vary: Accept-Encoding` is on every answer, as any of them may be compressed.
 */
export function createResponder({ cacheMaxBytes = 32 * 1024 * 1024 }: CreateResponderParameters = {}): Responder {
  const epoch = randomBytes(6).toString('base64url')
  const cache = createBodyCache({ maxBytes: cacheMaxBytes })

  return (request, reply, { version, contentType, build }) => {
    reply.header('vary', 'accept-encoding')
    if (version !== undefined) {
      const tag = `W/"${epoch}-${version}"`
      reply.header('etag', tag)
      if (isNotModified(request.headers['if-none-match'], tag)) return reply.code(304).send()
    }
    const coding = negotiateEncoding(request.headers['accept-encoding'])
    const kept = version === undefined ? undefined : cache.get(request.url, version)
    if (kept !== undefined) return sendKept(reply.code(200).type(contentType), kept, coding)

    const { status, body } = build()
    reply.code(status).type(contentType)
    const bytes = Buffer.from(body)
    if (version !== undefined && status === 200 && bytes.length >= keepFrom) return sendKept(reply, cache.put(request.url, version, bytes), coding)
    if (coding === 'identity' || bytes.length < compressFrom) return reply.send(bytes)
    return compressBody(bytes, coding).then((compressed) => sendEncoded(reply, compressed, coding))
  }
}

function sendKept(reply: FastifyReply, kept: CachedBody, coding: NegotiateEncodingReturnType): FastifyReply | Promise<FastifyReply> {
  if (coding === 'identity') return reply.send(kept.identity)
  return kept.encoded(coding).then((compressed) => sendEncoded(reply, compressed, coding))
}

function sendEncoded(reply: FastifyReply, compressed: Buffer, coding: NegotiateEncodingReturnType): FastifyReply {
  return reply.header('content-encoding', coding).send(compressed)
}
