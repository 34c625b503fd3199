import { readFile } from 'node:fs/promises'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { JobListSchema } from '../../contract/lists.ts'
import { httpRequest } from './httpRequest.ts'
import { openApiPath, startRestServer, type RestServer } from './startRestServer.ts'

let server: RestServer

beforeAll(async () => {
  server = await startRestServer()
})
afterAll(() => server.stop())

const get = (path: string, headers: Record<string, string> = {}) => httpRequest(server.baseUrl, path, { headers })

describe('ETag', () => {
  test.each(['/v1/services', '/v1/jobs/1', '/v1/stats', '/openapi.json'])('%s: weak tag, 304 on If-None-Match', async (path) => {
    const first = await get(path)
    expect(first.status).toBe(200)
    const etag = first.headers.etag
    expect(etag).toMatch(/^W\/".+"$/)
    const revalidated = await get(path, { 'if-none-match': String(etag) })
    expect(revalidated.status).toBe(304)
    expect(revalidated.body.length).toBe(0)
    expect(revalidated.headers.etag).toBe(etag)
    expect(revalidated.headers['access-control-allow-origin']).toBe('*')
  })

  test('a stale tag gets the full answer', async () => {
    const response = await get('/v1/services', { 'if-none-match': 'W/"stale"' })
    expect(response.status).toBe(200)
    expect(response.body.length).toBeGreaterThan(0)
  })

  test('the same tag for every encoding of a body, and a compressed answer revalidates', async () => {
    const identity = await get('/v1/jobs?limit=1000')
    const gzip = await get('/v1/jobs?limit=1000', { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.headers.etag).toBe(identity.headers.etag)
    const revalidated = await get('/v1/jobs?limit=1000', { 'accept-encoding': 'gzip', 'if-none-match': String(gzip.headers.etag) })
    expect(revalidated.status).toBe(304)
    expect(revalidated.body.length).toBe(0)
  })
})

describe('compression', () => {
  test.each([
    ['gzip', gunzipSync],
    ['br', brotliDecompressSync],
  ] as const)('%s for a large list, decoding to the identity body', async (encoding, decode) => {
    const identity = await get('/v1/jobs?limit=1000')
    expect(identity.headers['content-encoding']).toBeUndefined()
    expect(identity.body.length).toBeGreaterThan(1024)
    const compressed = await get('/v1/jobs?limit=1000', { 'accept-encoding': encoding })
    expect(compressed.status).toBe(200)
    expect(compressed.headers['content-encoding']).toBe(encoding)
    expect(compressed.headers.vary).toMatch(/accept-encoding/i)
    expect(compressed.body.length).toBeLessThan(identity.body.length)
    expect(decode(compressed.body).toString('utf8')).toBe(identity.text)
    JobListSchema.parse(JSON.parse(identity.text))
  })

  test('a small answer is sent as is', async () => {
    const response = await get('/v1/stats', { 'accept-encoding': 'gzip, br' })
    expect(response.body.length).toBeLessThan(1024)
    expect(response.headers['content-encoding']).toBeUndefined()
  })
})

describe('HEAD', () => {
  // Not /healthz: its uptime can tick between the two requests.
  test.each(['/v1/services', '/v1/jobs', '/v1/jobs/1', '/v1/stats', '/openapi.json', '/docs'])(
    '%s: the GET headers, no body',
    async (path) => {
      const got = await get(path)
      const head = await httpRequest(server.baseUrl, path, { method: 'HEAD' })
      expect(head.status).toBe(got.status)
      expect(head.body.length).toBe(0)
      expect(head.headers['content-type']).toBe(got.headers['content-type'])
      expect(head.headers['content-length']).toBe(String(got.body.length))
      expect(head.headers.etag).toBe(got.headers.etag)
      expect(head.headers['access-control-allow-origin']).toBe('*')
    },
  )

  test('errors too', async () => {
    const head = await httpRequest(server.baseUrl, '/v1/jobs/abc', { method: 'HEAD' })
    expect(head.status).toBe(400)
    expect(head.body.length).toBe(0)
  })
})

describe('GET /openapi.json', () => {
  test('the committed document, byte for byte', async () => {
    const response = await get('/openapi.json')
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(response.text).toBe(await readFile(openApiPath, 'utf8'))
  })
})

describe('GET /docs', () => {
  test('a self-contained Redoc page: no script, style or font from another host', async () => {
    const response = await get('/docs')
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    const html = response.text
    expect(html).toContain('<title>TEE Market indexer API</title>')
    expect(html).toContain('List and filter jobs')
    // Anything the browser would load from elsewhere: script and link tags, CSS imports and
    // font URLs, ES module imports. (The bundle's own string constants are not loads.)
    const external = [
      ...html.matchAll(/<script[^>]*\ssrc=["']?[^"' >]*:?\/\/[^>]*>/gi),
      ...html.matchAll(/<link[^>]*\shref=["']?(https?:)?\/\/[^>]*>/gi),
      ...html.matchAll(/@import\s+(url\()?["']?(https?:)?\/\/[^;]*/gi),
      ...html.matchAll(/url\(["']?(https?:)?\/\/[^)]*\.(woff2?|ttf|otf|eot)[^)]*\)/gi),
      ...html.matchAll(/\bimport\s*(\([^)]*|[^;'"]*from\s*)["'](https?:)?\/\/[^"']*["']/g),
    ].map((match) => match[0])
    expect(external).toEqual([])
  })

  test('compressed on request', async () => {
    const response = await get('/docs', { 'accept-encoding': 'gzip' })
    expect(response.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(response.body).toString('utf8')).toContain('<title>TEE Market indexer API</title>')
  })
})
