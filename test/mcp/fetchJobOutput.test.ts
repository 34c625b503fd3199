import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { once } from 'node:events'
import { type Address, keccak256, stringToBytes, zeroAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import { classifyAddress } from '../../platform/fetch/classifyAddress.ts'
import { readOutputSettings } from '../../mcp/output/readOutputSettings.ts'
import { fetchJobOutput, type FetchJobOutputParameters } from '../../mcp/run/fetchJobOutput.ts'
import { accountKey } from './support/accountKey.ts'

const seller: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const otherSeller: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const output = 'Two, three and five.'
const outputRootHash = keccak256(stringToBytes(output))

const closers: (() => void)[] = []
afterEach(() => {
  for (const close of closers.splice(0)) close()
})

/** A local endpoint answering every request with `listener`; its URL template and the requests it saw. */
async function endpoint(listener: RequestListener): Promise<{ template: string; requests: () => number }> {
  let requests = 0
  const server = createServer((request, response) => {
    requests++
    listener(request, response)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  closers.push(() => {
    server.closeAllConnections()
    server.close()
  })
  return { template: `http://127.0.0.1:${(server.address() as AddressInfo).port}/outputs/{jobId}`, requests: () => requests }
}

function fetchFrom(env: Record<string, string>, overrides: Partial<FetchJobOutputParameters> = {}) {
  return fetchJobOutput({
    settings: readOutputSettings({ env }),
    jobId: 7n,
    account: privateKeyToAccount(accountKey(21)),
    seller,
    chainId: 31337,
    escrow: zeroAddress,
    outputRootHash,
    retryForMs: 0,
    requestTimeoutMs: 2_000,
    ...overrides,
  })
}

test('default: the job seller’s endpoint answers the output, which hashes to the outputRootHash', async () => {
  const { template } = await endpoint((_, response) => response.writeHead(200).end(JSON.stringify({ jobId: '7', output, outputRootHash })))
  expect(await fetchFrom({ MARKET_OUTPUT_URLS: `${seller}=${template}` })).toEqual({ output, note: null })
})

describe('which endpoint', () => {
  test('another seller’s endpoint receives nothing', async () => {
    const other = await endpoint((_, response) => response.writeHead(200).end(JSON.stringify({ output })))
    const fetched = await fetchFrom({ MARKET_OUTPUT_URLS: `${otherSeller}=${other.template}` })
    expect(fetched.note).toBe(
      `No output endpoint is configured for the job's seller ${seller}, so the output was not fetched: a request signed for one seller goes only to that seller's endpoint. Add it to MARKET_OUTPUT_URLS as ${seller}=<URL with {jobId}>.`,
    )
    expect(other.requests()).toBe(0)
  })

  test('MARKET_OUTPUT_URL serves the seller MARKET_OUTPUT_SELLER names (any case)', async () => {
    const { template } = await endpoint((_, response) => response.writeHead(200).end(JSON.stringify({ output })))
    expect(await fetchFrom({ MARKET_OUTPUT_URL: template, MARKET_OUTPUT_SELLER: seller.toLowerCase() })).toEqual({ output, note: null })
  })

  test('a host name resolving to loopback is refused before any connection', async () => {
    const { template, requests } = await endpoint((_, response) => response.writeHead(200).end(JSON.stringify({ output })))
    const named = template.replace('127.0.0.1', 'localhost')
    const fetched = await fetchFrom({ MARKET_OUTPUT_URLS: `${seller}=${named}` })
    expect(fetched.note).toMatch(/^The seller's output endpoint http:\/\/localhost:\d+\/outputs\/7 was not contacted: "localhost" resolves to (127\.0\.0\.1|::1), a loopback address\./)
    expect(requests()).toBe(0)
  })
})

describe('what the endpoint answers', () => {
  test('a redirect is a note; the seller’s location is quoted with control characters escaped', async () => {
    const { template, requests } = await endpoint((_, response) => response.writeHead(301, { location: '/x\u0085evil' }).end())
    const fetched = await fetchFrom({ MARKET_OUTPUT_URLS: `${seller}=${template}` })
    expect(fetched.note).toBe(`The seller's output endpoint ${template.replace('{jobId}', '7')} answered a redirect (301) to "/x\\u0085evil"; not followed.`)
    expect(requests()).toBe(1)
  })

  test('a declared Content-Length over the cap is not read', async () => {
    const { template } = await endpoint((_, response) => {
      response.writeHead(200, { 'content-length': '2000' })
      response.write('{"output":"')
    })
    const fetched = await fetchFrom({ MARKET_OUTPUT_URLS: `${seller}=${template}`, MARKET_MAX_OUTPUT_BYTES: '1000' })
    expect(fetched.note).toBe(`The seller's output endpoint ${template.replace('{jobId}', '7')} sent more than 1000 bytes (MARKET_MAX_OUTPUT_BYTES); reading stopped there.`)
  })

  test('a chunked body one byte over the cap stops; one at the cap is read', async () => {
    const body = JSON.stringify({ output })
    const { template } = await endpoint((_, response) => {
      response.writeHead(200)
      response.write(body.slice(0, 5))
      response.end(body.slice(5))
    })
    const over = await fetchFrom({ MARKET_OUTPUT_URLS: `${seller}=${template}`, MARKET_MAX_OUTPUT_BYTES: String(body.length - 1) })
    expect(over.note).toContain(`sent more than ${body.length - 1} bytes`)
    const at = await fetchFrom({ MARKET_OUTPUT_URLS: `${seller}=${template}`, MARKET_MAX_OUTPUT_BYTES: String(body.length) })
    expect(at).toEqual({ output, note: null })
  })

  test('a body dripped slower than the deadline ends at the deadline', async () => {
    const { template } = await endpoint((_, response) => {
      response.writeHead(200)
      const timer = setInterval(() => response.write(' '), 100)
      response.on('close', () => clearInterval(timer))
    })
    const started = performance.now()
    const fetched = await fetchFrom({ MARKET_OUTPUT_URLS: `${seller}=${template}` }, { requestTimeoutMs: 500 })
    expect(fetched.note).toBe(`The seller's output endpoint ${template.replace('{jobId}', '7')} did not answer within 0.5 s.`)
    // The body drips for good, so only the 0.5 s deadline ends it; 10 s of slack is a loaded host's, not a speed target.
    expect(performance.now() - started).toBeLessThan(500 + 10_000)
  })

  test.each([
    [32, `{"output":${'['.repeat(31)}${']'.repeat(31)}}`, 'answered without an output.'],
    [33, `{"output":${'['.repeat(32)}${']'.repeat(32)}}`, 'answered JSON nested deeper than 32 levels; it was not parsed.'],
    [1, `{"output":"${'['.repeat(100)}"}`, 'DIGEST'],
  ])('JSON nested %i levels', async (_, body, ending) => {
    const { template } = await endpoint((_, response) => response.writeHead(200).end(body))
    const fetched = await fetchFrom({ MARKET_OUTPUT_URLS: `${seller}=${template}` })
    if (ending === 'DIGEST') expect(fetched.note).toContain('so it was withheld.')
    else expect(fetched.note).toBe(`The seller's output endpoint ${template.replace('{jobId}', '7')} ${ending}`)
  })

  test('an unreachable endpoint', async () => {
    const { template } = await endpoint(() => {})
    closers.splice(0).forEach((close) => close())
    const fetched = await fetchFrom({ MARKET_OUTPUT_URLS: `${seller}=${template}` })
    const url = template.replace('{jobId}', '7')
    expect(fetched.note).toBe(`The seller's output endpoint ${url} could not be reached ("connect ECONNREFUSED ${new URL(url).host}").`)
  })
})

describe('readOutputSettings', () => {
  test('default: nothing set', () => {
    expect(readOutputSettings({ env: {} })).toEqual({ endpoints: new Map(), unboundUrl: null, maxBytes: 4_194_304 })
  })

  test('pairs and the single template together, addresses checksummed', () => {
    const settings = readOutputSettings({
      env: {
        MARKET_OUTPUT_URLS: ` ${seller.toLowerCase()}=https://a.example/o/{jobId}?x=1 ,`.replace(/,$/, ''),
        MARKET_OUTPUT_URL: 'http://127.0.0.1:8082/outputs/{jobId}',
        MARKET_OUTPUT_SELLER: otherSeller,
      },
    })
    expect([...settings.endpoints]).toEqual([
      [seller, 'https://a.example/o/{jobId}?x=1'],
      [otherSeller, 'http://127.0.0.1:8082/outputs/{jobId}'],
    ])
    expect(settings.unboundUrl).toBeNull()
  })

  test.each([
    [{ MARKET_OUTPUT_URLS: 'http://a.example/{jobId}' }, 'MARKET_OUTPUT_URLS "http://a.example/{jobId}" must be comma-separated seller=URL pairs: a seller address (0x + 40 hex digits), "=", and an http:// or https:// URL containing {jobId} and no comma. Nothing was spent.'],
    [{ MARKET_OUTPUT_URLS: `${seller}=ftp://a.example/{jobId}` }, 'MARKET_OUTPUT_URLS must be comma-separated seller=URL pairs: a seller address (0x + 40 hex digits), "=", and an http:// or https:// URL containing {jobId} and no comma, got a value of 66 characters, not shown as it may hold a key. Nothing was spent.'],
    [{ MARKET_OUTPUT_URLS: `${seller}=http://a/{jobId},${seller}=http://b/{jobId}` }, `MARKET_OUTPUT_URLS must be a list naming each seller once (${seller} is named twice), got a value of 119 characters, not shown as it may hold a key. Nothing was spent.`],
    [{ MARKET_OUTPUT_SELLER: seller }, 'MARKET_OUTPUT_SELLER must be a seller address (0x + 40 hex digits), given with MARKET_OUTPUT_URL, for a seller not in MARKET_OUTPUT_URLS, got a value of 42 characters, not shown as it may hold a key. Nothing was spent.'],
    [{ MARKET_OUTPUT_URL: 'http://a/{jobId}', MARKET_OUTPUT_SELLER: 'me' }, 'MARKET_OUTPUT_SELLER "me" must be a seller address (0x + 40 hex digits), given with MARKET_OUTPUT_URL, for a seller not in MARKET_OUTPUT_URLS. Nothing was spent.'],
    [{ MARKET_MAX_OUTPUT_BYTES: '16777217' }, 'MARKET_MAX_OUTPUT_BYTES "16777217" must be a whole number of bytes from 1 to 16777216. Nothing was spent.'],
    [{ MARKET_MAX_OUTPUT_BYTES: '4MB' }, 'MARKET_MAX_OUTPUT_BYTES "4MB" must be a whole number of bytes from 1 to 16777216. Nothing was spent.'],
  ])('refused: %o', (env, message) => {
    expect(() => readOutputSettings({ env })).toThrow(message)
  })
})

test.each([
  ['8.8.8.8', 'public'],
  ['2606:4700:4700::1111', 'public'],
  ['::ffff:8.8.8.8', 'public'],
  ['100.128.0.1', 'public'],
  ['172.32.0.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['::ffff:192.168.0.1', 'private'],
  ['fc00::1', 'private'],
  ['fdff::1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['fe80::1', 'link-local'],
  ['febf::1', 'link-local'],
  ['0.0.0.0', 'non-public'],
  ['0.1.2.3', 'non-public'],
  ['::', 'non-public'],
  ['100.64.0.1', 'non-public'],
  ['100.127.255.255', 'non-public'],
  ['224.0.0.1', 'non-public'],
  ['255.255.255.255', 'non-public'],
  ['ff02::1', 'non-public'],
  ['not an address', 'non-public'],
])('classifyAddress(%s) is %s', (address, kind) => {
  expect(classifyAddress(address)).toBe(kind)
})
