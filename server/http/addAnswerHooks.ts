import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify'
import { compressBody } from './compressBody.ts'
import { createBodyCache, type CachedBody } from './createBodyCache.ts'
import { isNotModified } from './isNotModified.ts'
import { negotiateEncoding, type NegotiateEncodingReturnType } from './negotiateEncoding.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The store version the answer to this request reflects (set by a route's `onRequest`). */
    answerVersion: number | undefined
    /** The answer was a kept body, sent as is by `onRequest`: `onSend` leaves it alone. */
    answerKept: boolean
  }
}

/** What a route serves, as its `onRequest` hook needs to know it; made once per route. */
export type AnswerResource = {
  contentType: string
  /**
   * The store version the body will reflect: the same version, the same body, so it is the ETag
   * and the key of a kept body. Undefined for a body that changes with time or will be an error.
   * Must be cheap: it runs before the handler, which it may spare.
   */
  version: (request: FastifyRequest) => number | undefined
}

export type AnswerHooks = {
  /** A route-level `onRequest` hook: 304 or a kept body before the handler, else the ETag header. */
  onRequest: (resource: AnswerResource) => onRequestHookHandler
}

export type AddAnswerHooksParameters = {
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
 * ETags, kept bodies and compression as Fastify hooks around whatever builds the answers (the
 * ts-rest routes, the docs pages). A weak ETag is a random per-app epoch and the store version (no
 * hashing of bodies, and tags from an earlier process never match); a route's `onRequest` answers
 * 304 before anything is built when `If-None-Match` names it, or sends a kept body. `onSend`, for
 * every answer, keeps large bodies per URL and version and compresses anything over 1 KB with the
 * client's preferred coding. `Vary: Accept-Encoding` is on every answer, as any may be compressed.
 */
export function addAnswerHooks(app: FastifyInstance, { cacheMaxBytes = 64 * 1024 * 1024 }: AddAnswerHooksParameters = {}): AnswerHooks {
  const epoch = randomBytes(6).toString('base64url')
  const cache = createBodyCache({ maxBytes: cacheMaxBytes })
  app.decorateRequest('answerVersion', undefined)
  app.decorateRequest('answerKept', false)

  const onSend: onSendHookHandler = (request, reply, payload, done) => {
    reply.header('vary', 'accept-encoding')
    if (request.answerKept || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return done(null, payload)
    const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length
    const version = request.answerVersion
    const coding = negotiateEncoding(request.headers['accept-encoding'])
    if (version !== undefined && reply.statusCode === 200 && length >= keepFrom) {
      const kept = cache.put(request.url, version, typeof payload === 'string' ? Buffer.from(payload) : payload)
      return sendKept(reply, kept, coding, done)
    }
    if (coding === 'identity' || length < compressFrom) return done(null, payload)
    compressBody(typeof payload === 'string' ? Buffer.from(payload) : payload, coding).then(
      (compressed) => done(null, encoded(reply, compressed, coding)),
      (error: Error) => done(error),
    )
  }
  app.addHook('onSend', onSend)

  return {
    onRequest: ({ contentType, version: versionOf }) =>
      function answerFromVersion(request, reply, done) {
        const version = versionOf(request)
        if (version === undefined) return done()
        request.answerVersion = version
        const tag = `W/"${epoch}-${version}"`
        reply.header('etag', tag)
        if (isNotModified(request.headers['if-none-match'], tag)) {
          reply.code(304).send()
          return
        }
        const kept = cache.get(request.url, version)
        if (kept === undefined) return done()
        request.answerKept = true
        reply.code(200).type(contentType)
        sendKept(reply, kept, negotiateEncoding(request.headers['accept-encoding']), (error, body) =>
          error === null ? reply.send(body) : reply.send(error),
        )
      },
  }
}

type Done = (error: Error | null, body?: Buffer) => void

function sendKept(reply: FastifyReply, kept: CachedBody, coding: NegotiateEncodingReturnType, done: Done): void {
  if (coding === 'identity') return done(null, kept.identity)
  kept.encoded(coding).then(
    (compressed) => done(null, encoded(reply, compressed, coding)),
    (error: Error) => done(error),
  )
}

function encoded(reply: FastifyReply, compressed: Buffer, coding: NegotiateEncodingReturnType): Buffer {
  reply.header('content-encoding', coding)
  return compressed
}
