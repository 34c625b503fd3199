import { maxHeaderSize } from 'node:http'
import type { Socket } from 'node:net'
import { HeadersTooLargeError, MalformedRequestError, RequestTimeoutError } from '../../errors/http.ts'
import { writeSocketError } from './writeSocketError.ts'

/**
 * Fastify's `clientErrorHandler`, for what Node's HTTP parser refuses before any route runs: a
 * request too slow to arrive (408), headers over the size limit (431), anything malformed (400),
 * each in our error shape with CORS instead of Fastify's own body.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  writeSocketError(
    socket,
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new RequestTimeoutError({ cause: error })
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new HeadersTooLargeError({ maxBytes: maxHeaderSize, cause: error })
        : new MalformedRequestError({ cause: error }),
  )
}
