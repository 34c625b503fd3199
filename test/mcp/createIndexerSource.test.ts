import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { createIndexerSource } from '../../mcp/source/createIndexerSource.ts'

// The REST indexer as the hosted MCP server's source sees it, played by a server that answers
// what each test sets and keeps the headers it was sent.

type Reply = { status: number; headers?: Record<string, string>; body: string }

let server: Server | undefined

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

async function indexerAnswering(reply: Reply): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = []
  server = createServer((request, response) => {
    seen.push(request.headers)
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.body)
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

const notFound: Reply = { status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'Job "7" could not be found.' } }) }
const limited = (retryAfter: string): Reply => ({
  status: 429,
  headers: { 'retry-after': retryAfter },
  body: JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests from this address.' } }),
})

test('default: each read names the caller being answered and asks for an uncompressed answer', async () => {
  const { url, seen } = await indexerAnswering(notFound)
  const source = createIndexerSource({ indexerUrl: url, forwardedFor: () => '203.0.113.9' })
  await expect(source.getJob({ jobId: 7n })).rejects.toThrow('Job "7" could not be found.')
  expect(seen[0]).toMatchObject({ 'x-forwarded-for': '203.0.113.9', 'accept-encoding': 'identity' })
})

test('outside an answered request no address is forwarded', async () => {
  const { url, seen } = await indexerAnswering(notFound)
  await expect(createIndexerSource({ indexerUrl: url, forwardedFor: () => undefined }).getService({ serviceId: 7n })).rejects.toThrow()
  expect(seen[0]).not.toHaveProperty('x-forwarded-for')
})

describe('a refusal as over the limit', () => {
  test('says so and when to come back, from Retry-After', async () => {
    const { url } = await indexerAnswering(limited('17'))
    const failure = await createIndexerSource({ indexerUrl: url }).getJob({ jobId: 1n }).catch((error: unknown) => error)
    expect(failure).toMatchObject({
      name: 'IndexerRateLimitedError',
      code: 'rate_limited',
      message: `The indexer at "${url}" refused the read as over its per-client request limit. Try again in 17 s.`,
    })
  })

  test('a Retry-After that is not a number of seconds is not repeated', async () => {
    const { url } = await indexerAnswering(limited('soon, <b>now</b>'))
    await expect(createIndexerSource({ indexerUrl: url }).listServices()).rejects.toThrow(
      `The indexer at "${url}" refused the read as over its per-client request limit. Slow down and try again shortly.`,
    )
  })
})

test('a 200 whose body is not what the contract allows is no answer', async () => {
  const { url } = await indexerAnswering({ status: 200, body: JSON.stringify({ jobId: 'seven' }) })
  await expect(createIndexerSource({ indexerUrl: url }).getJob({ jobId: 7n })).rejects.toMatchObject({
    name: 'IndexerResponseError',
    message: `The indexer at "${url}" did not give a valid answer; try again shortly.`,
  })
})
