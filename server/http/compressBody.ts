import { promisify } from 'node:util'
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib'
import type { ContentCoding } from './negotiateEncoding.ts'

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Below this, compressing on the event loop costs less than handing the work to the thread pool
 * and back; above it (a seller's record, a list of 1,000 jobs, the API reference page) it would
 * hold every other request up for milliseconds.
 */
const syncLimit = 64 * 1024

/** Quality 4, not the default 11: about as small for JSON, at a fraction of the CPU. */
const brotliQuality = 4

/** `body` compressed with `coding`: at once when small, on the thread pool when large. */
export async function compressBody(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  if (coding === 'gzip') return body.length < syncLimit ? gzipSync(body) : gzipAsync(body)
  const options: BrotliOptions = {
    params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  }
  return body.length < syncLimit ? brotliCompressSync(body, options) : brotliAsync(body, options)
}
