import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildApp } from '../../server/http/buildApp.ts'
import { createStore } from '../../server/store/createStore.ts'
import { openApiPath } from './startRestServer.ts'

/** A stand-in reference page with what Redoc's has: an inline script, a style element and a style attribute (and a large body, kept after the first answer). */
const docsHtml = `<!doctype html><html><head><title>API reference</title><style>body{margin:0}</style></head>
<body><div style="--navbar-height:0px"><script>paint()</script></div><script type="module">${'/* bundle */'.repeat(2_000)}</script></body></html>`

/** Every header @fastify/helmet sets with our options. */
const pageHeaderNames = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

let app: FastifyInstance

beforeAll(async () => {
  const store = createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet' })
  app = buildApp({
    store,
    mode: 'production',
    openApiText: await readFile(openApiPath, 'utf8'),
    docsHtml,
    explorer: {
      assets: { js: 'console.log(1)', css: 'body{}', teeJs: 'export {}' },
      site: { network: 'devnet', chainId: 31337, explorerUrl: null, currency: { symbol: 'ETH', decimals: 18 } },
    },
  })
  await app.ready()
})
afterAll(() => app.close())

const pagePaths = ['/', '/jobs/1', '/explorer/explorer.js', '/explorer/explorer.css', '/explorer/explorer-tee.js', '/docs', '/docs/swagger', '/docs/swagger/swagger-ui-bundle.js', '/docs/swagger/swagger-initializer.js']

describe('the pages and their files', () => {
  test.each(pagePaths)('default: %s has a policy of files from this server only, no framing, no sniffing, no Referer', async (url) => {
    const { statusCode, headers } = await app.inject({ url })
    expect(statusCode).toBe(200)
    const csp = String(headers['content-security-policy'])
    expect(csp).toMatch(/(^|;)script-src 'self'( 'sha256-[^']+')*(;|$)/)
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("base-uri 'none'")
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|upgrade-insecure-requests/)
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['referrer-policy']).toBe('no-referrer')
    // Host-wide and a year long: for whatever terminates TLS to decide, not one page.
    expect(headers['strict-transport-security']).toBeUndefined()
  })

  test('/docs allows its own inline script, style element and style attribute by hash, and the empty style element Redoc adds', async () => {
    const csp = String((await app.inject({ url: '/docs' })).headers['content-security-policy'])
    const directive = (name: string) => csp.split(';').find((part) => part.startsWith(`${name} `))?.split(' ').slice(1)
    expect(directive('script-src')).toEqual(["'self'", hash('paint()'), hash('/* bundle */'.repeat(2_000))])
    expect(directive('style-src')).toEqual(["'self'", hash('body{margin:0}'), hash(''), "'unsafe-hashes'", hash('--navbar-height:0px')])
  })

  test('the explorer and Swagger UI allow no inline script or style at all', async () => {
    for (const url of ['/', '/docs/swagger']) {
      const csp = String((await app.inject({ url })).headers['content-security-policy'])
      expect(csp).not.toContain('sha256-')
      expect(csp).toMatch(/(^|;)style-src 'self'(;|$)/)
    }
  })

  test('a 304 and a kept body (answered before the handler) carry the same headers', async () => {
    for (const url of ['/docs', '/docs/swagger/swagger-ui-bundle.js']) {
      const first = await app.inject({ url })
      const kept = await app.inject({ url })
      const notModified = await app.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } })
      expect(notModified.statusCode).toBe(304)
      for (const answer of [kept, notModified])
        for (const name of pageHeaderNames) expect(answer.headers[name], `${name} on ${url} (${answer.statusCode})`).toBe(first.headers[name])
    }
  })
})

describe('the JSON API is as it was', () => {
  test.each(['/v1/stats', '/v1/jobs', '/healthz', '/openapi.json', '/v1/nope'])('%s: none of the pages’ headers', async (url) => {
    const { headers } = await app.inject({ url })
    for (const name of pageHeaderNames) expect(headers[name], name).toBeUndefined()
  })
})
