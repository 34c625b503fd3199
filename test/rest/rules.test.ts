import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ErrorBodySchema, type ErrorBody } from '../../contract/error.ts'
import { SellerSchema } from '../../contract/seller.ts'
import { httpRequest, type HttpRequestParameters, type HttpRequestReturnType } from './httpRequest.ts'
import { startRestServer, type RestServer } from './startRestServer.ts'

let server: RestServer

beforeAll(async () => {
  server = await startRestServer()
})
afterAll(() => server.stop())

/** Every answer, whatever it is, must be readable cross-origin. */
async function send(path: string, parameters?: HttpRequestParameters): Promise<HttpRequestReturnType> {
  const response = await httpRequest(server.baseUrl, path, parameters)
  expect(response.headers['access-control-allow-origin'], `CORS header on ${path}`).toBe('*')
  return response
}

/** An error answer: the status, JSON, an `ErrorBody`, and nothing of our internals. */
async function expectError(path: string, status: number, parameters?: HttpRequestParameters): Promise<ErrorBody['error']> {
  const response = await send(path, parameters)
  expect(response.status, `${parameters?.method ?? 'GET'} ${path}`).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  const { error } = ErrorBodySchema.parse(JSON.parse(response.text))
  expect(error.message).not.toMatch(/\n\s+at |node_modules|\/work\/|\.ts\b|\[ts-rest\]/)
  return error
}

const longDigits = '9'.repeat(79)

describe('limit on GET /v1/jobs', () => {
  test.each(['1', '50', '1000'])('limit=%s: 200', async (limit) => {
    const response = await send(`/v1/jobs?limit=${limit}`)
    expect(response.status).toBe(200)
    const { count, jobs } = JSON.parse(response.text) as { count: number; jobs: unknown[] }
    expect(count).toBe(jobs.length)
    expect(count).toBeLessThanOrEqual(Number(limit))
  })

  test.each(['0', '-1', '1001', 'abc', '1.5', '1e3', '', '+1', '01', '%201', '0x10', '1000000000000000000000'])(
    'limit=%s: 400',
    async (limit) => {
      const error = await expectError(`/v1/jobs?limit=${limit}`, 400)
      expect(error.code).toBe('invalid_parameter')
      expect(error.message).toMatch(/^The query parameter "limit" is invalid: got ".*"\. Expected an integer from 1 to 1000/)
    },
  )

  test('repeated limit: 400 saying so', async () => {
    const error = await expectError('/v1/jobs?limit=1&limit=2', 400)
    expect(error).toEqual({
      code: 'invalid_parameter',
      message:
        'The query parameter "limit" is invalid: it was given 2 times. Expected an integer from 1 to 1000, written in plain digits. Give the parameter once.',
    })
  })
})

describe.each(['services', 'jobs'])('id on GET /v1/%s/:id', (resource) => {
  test.each(['-1', '0x1', '1.0', '01', 'abc', longDigits, '1e3', '%20', '+1', '%E2%91%A0'])('id %s: 400', async (id) => {
    const error = await expectError(`/v1/${resource}/${id}`, 400)
    expect(error.code).toBe('invalid_parameter')
    expect(error.message).toMatch(/^The path parameter "id" is invalid: got ".*"\. Expected /)
  })

  test('an id of thousands of digits: 400, quoted value cut short', async () => {
    const error = await expectError(`/v1/${resource}/${'1'.repeat(5000)}`, 400)
    expect(error.message).toContain('Expected at most 78 digits.')
    expect(error.message.length).toBeLessThan(300)
  })

  test.each(['0', '999999', '9'.repeat(78)])('id %s: 404', async (id) => {
    const error = await expectError(`/v1/${resource}/${id}`, 404)
    expect(error.code).toBe(resource === 'jobs' ? 'job_not_found' : 'service_not_found')
    expect(error.message).toContain(`"${id}"`)
  })
})

describe('address on GET /v1/sellers/:address', () => {
  test.each([
    '0x123',
    'abc',
    `0x${'g'.repeat(40)}`,
    `0x${'a'.repeat(41)}`,
    'a'.repeat(42),
    '70997970c51812dc3a010c7d01b50e0d17dc79c8',
    `0X${'a'.repeat(40)}`,
  ])('address %s: 400', async (address) => {
    const error = await expectError(`/v1/sellers/${address}`, 400)
    expect(error.code).toBe('invalid_parameter')
    expect(error.message).toMatch(/^The path parameter "address" is invalid: got ".*"\. Expected 0x followed by 40 hex digits/)
  })

  test.each([`0x${'a'.repeat(40)}`, `0x${'A'.repeat(40)}`, '0x000000000000000000000000000000000000dead'])(
    'unknown seller %s: 200 with empty arrays, address echoed EIP-55',
    async (address) => {
      const response = await send(`/v1/sellers/${address}`)
      expect(response.status).toBe(200)
      expect(SellerSchema.parse(JSON.parse(response.text))).toEqual({ seller: getAddress(address), services: [], jobs: [], nextCursor: null })
    },
  )
})

describe('unknown paths', () => {
  test.each(['/jobs', '/jobs/1/x', '/explorer/nope.js', '/v1', '/v2/services', '/v1/services/1/jobs', '/healthz/x', '/V1/services', '/v1/job', '/openapi.yaml'])(
    '%s: 404 not_found listing the paths',
    async (path) => {
      const error = await expectError(path, 404)
      expect(error.code).toBe('not_found')
      expect(error.message).toContain('/v1/services/{id}')
    },
  )

  test('any method on an unknown path is a 404', async () => {
    expect((await expectError('/nothing', 404, { method: 'POST' })).code).toBe('not_found')
    expect((await expectError('/nothing', 404, { method: 'DELETE' })).code).toBe('not_found')
  })
})

describe('malformed percent-encoding', () => {
  test.each(['/v1/jobs/%E0%A4%A', '/v1/services/%'])('%s: 400 malformed_url saying what a "%" must start', async (path) => {
    const error = await expectError(path, 400)
    expect(error.code).toBe('malformed_url')
    expect(error.message).toContain(JSON.stringify(path))
    expect(error.message).toContain('two hex digits')
  })
})

const readOnlyPaths = [
  '/healthz', '/v1/services', '/v1/services/1', '/v1/services/1/events', '/v1/jobs', '/v1/jobs/1', `/v1/sellers/0x${'a'.repeat(40)}`,
  '/v1/stats', `/v1/transactions/0x${'a'.repeat(64)}`, '/openapi.json', '/docs', '/docs/swagger', '/', '/jobs/1', '/services/1', `/sellers/0x${'a'.repeat(40)}`, '/readyz', '/metrics',
]

describe('the explorer', () => {
  test('/ and every deep link serve the same HTML shell, whose assets are served too', async () => {
    const shells = await Promise.all(['/', '/jobs/42', '/services/3', `/sellers/0x${'a'.repeat(40)}`].map((path) => send(path)))
    for (const shell of shells) {
      expect(shell.status).toBe(200)
      expect(shell.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(shell.text).toBe(shells[0]?.text)
    }
    const assets = [...(shells[0]?.text ?? '').matchAll(/(?:src|href)="(\/explorer\/[^"]+)"/g)].map((match) => match[1] as string)
    expect(assets).toEqual(['/explorer/explorer.css', '/explorer/explorer.js'])
    for (const asset of assets) expect((await send(asset)).status).toBe(200)
  })
})

describe('methods other than GET, HEAD, OPTIONS', () => {
  test.each(readOnlyPaths.flatMap((path) => ['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => [method, path] as const)))(
    '%s %s: 405 with Allow',
    async (method, path) => {
      const response = await send(path, { method })
      expect(response.status).toBe(405)
      expect(response.headers.allow).toBe('GET, HEAD, OPTIONS')
      const { error } = ErrorBodySchema.parse(JSON.parse(response.text))
      expect(error.code).toBe('method_not_allowed')
      expect(error.message).toBe(`Method "${method}" is not allowed on "${path}". Allowed methods: GET, HEAD, OPTIONS.`)
    },
  )

  test('a POST with a malformed JSON body is still a 405, not a parse error', async () => {
    const response = await send('/v1/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' })
    expect(response.status).toBe(405)
  })
})

describe('CORS', () => {
  test.each(readOnlyPaths)('preflight OPTIONS %s: 204', async (path) => {
    const response = await send(path, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    })
    expect(response.status).toBe(204)
    expect(response.body.length).toBe(0)
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS')
    expect(response.headers['access-control-allow-headers']).toBe('if-none-match')
  })

  test('a plain GET from another origin is readable, ETag and the rate-limit headers exposed', async () => {
    const response = await send('/v1/stats', { headers: { origin: 'https://example.org' } })
    expect(response.status).toBe(200)
    expect(response.headers['access-control-expose-headers']).toBe('etag, retry-after, ratelimit, ratelimit-policy')
  })
})

describe('never a 500', () => {
  test.each([
    '/v1/jobs/%ZZ',
    '/v1/services/%',
    '/v1/sellers/%00',
    '/v1/jobs?limit=%00',
    '/v1/jobs?limit[]=1',
    '/v1/jobs?limit=1&limit=2&limit=3',
    '/v1/jobs?limit=%E2%88%9E',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/v1/jobs/..%2f..%2fpackage.json',
    '/v1/services?x=1&y',
    '/v1/jobs/1?limit=abc',
    '//v1//jobs',
    `/v1/jobs/${'%31'.repeat(100)}`,
  ])('%s', async (path) => {
    const response = await send(path)
    expect(response.status).toBeLessThan(500)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    if (response.status >= 400) {
      const { error } = ErrorBodySchema.parse(JSON.parse(response.text))
      expect(error.message).not.toMatch(/\n\s+at |node_modules|\/work\//)
    }
  })
})
