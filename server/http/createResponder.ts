import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { compressBody } from './compressBody.ts'
import { createBodyCache, type CachedBody } from './createBodyCache.ts'
import { isNotModified } from './isNotModified.ts'
import { negotiateEncoding, type NegotiateEncodingReturnType } from './negotiateEncoding.ts'

/**
 * What a route serves, given its parsed input. Made once per route, not per request: under tsx
 * every function created per request also costs a `defineProperty` (esbuild's name keeping).
 */
export type Resource<Input> = {
  contentType: string
  /**
   * The store version the body reflects: the same version, the same body, so it is the ETag and
   * the key of a kept body. Undefined for a body that changes with time or is an error.
   */
  version: (input: Input) => number | undefined
  /** Builds and serializes the answer; not called for a 304 or a kept body. */
  build: (input: Input, reply: FastifyReply) => { status: number; body: string }
}

/**
 * Answers a request with a resource. Returns a promise only while compressing; a synchronous
 * answer returns nothing, so Fastify has no thenable to wait on.
 */
export type Responder = <Input>(request: FastifyRequest, reply: FastifyReply, resource: Resource<Input>, input: Input) => Promise<void> | undefined

export type CreateResponderParameters = {
  /**
   * Bound on the bytes of serialized bodies kept (see createBodyCache). The default holds the
   * record of a seller with 40,000 jobs (~50 MB), or many smaller answers.
   */
  cacheMaxBytes?: number
}

/** Bodies this small are sent as they are: compressing them saves less than it costs. */
const compressFrom = 1024

/**
 * Bodies this large are kept per URL and version (lists, a seller's record, the API reference):
 * building one costs from a tenth of a millisecond to tens of them, sending a kept one almost
 * nothing. A single job or the stats are built for every request.
 */
const keepFrom = 16 * 1024

/**
 * Sends every answer of the API: a weak ETag made of a random per-app epoch and the store version
 * (no hashing of bodies, and tags from an earlier process never match), a 304 before anything is
 * built when `If-None-Match` names it, and the body compressed with the client's preferred coding
 * once it is over 1 KB. `Vary: Accept-Encoding` is on every answer, as any of them may be compressed.
 */
export function createResponder({ cacheMaxBytes = 64 * 1024 * 1024 }: CreateResponderParameters = {}): Responder {
  const epoch = randomBytes(6).toString('base64url')
  const cache = createBodyCache({ maxBytes: cacheMaxBytes })

  return (request, reply, { contentType, version: versionOf, build }, input) => {
    reply.header('vary', 'accept-encoding')
    const version = versionOf(input)
    if (version !== undefined) {
      const tag = `W/"${epoch}-${version}"`
      reply.header('etag', tag)
      if (isNotModified(request.headers['if-none-match'], tag)) {
        reply.code(304).send()
        return undefined
      }
    }
    const coding = negotiateEncoding(request.headers['accept-encoding'])
    const kept = version === undefined ? undefined : cache.get(request.url, version)
    if (kept !== undefined) return sendKept(reply.code(200).type(contentType), kept, coding)

    const { status, body } = build(input, reply)
    reply.code(status).type(contentType)
    const bytes = Buffer.from(body)
    if (version !== undefined && status === 200 && bytes.length >= keepFrom) return sendKept(reply, cache.put(request.url, version, bytes), coding)
    if (coding === 'identity' || bytes.length < compressFrom) {
      reply.send(bytes)
      return undefined
    }
    return compressBody(bytes, coding).then((compressed) => sendEncoded(reply, compressed, coding))
  }
}

function sendKept(reply: FastifyReply, kept: CachedBody, coding: NegotiateEncodingReturnType): Promise<void> | undefined {
  if (coding === 'identity') {
    reply.send(kept.identity)
    return undefined
  }
  return kept.encoded(coding).then((compressed) => sendEncoded(reply, compressed, coding))
}

function sendEncoded(reply: FastifyReply, compressed: Buffer, coding: NegotiateEncodingReturnType): void {
  reply.header('content-encoding', coding).send(compressed)
}
