import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  CallExecutionError,
  createPublicClient,
  http,
  HttpRequestError,
  InternalRpcError,
  InvalidParamsRpcError,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
  ResponseBodyTooLargeError,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
  UnknownRpcError,
  WebSocketRequestError,
  type Hex,
} from 'viem'
import { call } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { classifyRpcError, type RpcErrorKind } from '../../chain/rpc/classifyRpcError.ts'
import { ChainChangedError } from '../../errors/chain.ts'

const url = 'http://127.0.0.1:8545'
const body = { method: 'eth_getLogs' }
const rpcError = (code: number, message: string) => new RpcRequestError({ body, url, error: { code, message } })
/** How viem's `call` action throws a failed `eth_call`: its node error wrapped in CallExecutionError. */
const asCallThrowsIt = (cause: Error) => new CallExecutionError(cause as never, {})

test('default', () => {
  expect(classifyRpcError(new LimitExceededRpcError(rpcError(-32005, 'query returned more than 10000 results')))).toBe('too-large')
})

describe('error', () => {
  test.each<[RpcErrorKind, string, unknown]>([
    ['rate-limited', 'HTTP 429', new HttpRequestError({ url, status: 429, body, details: 'Too Many Requests' })],
    ['rate-limited', 'JSON-RPC 429 in an HTTP 200 batch (Alchemy)', rpcError(429, 'Too Many Requests')],
    [
      'rate-limited',
      'JSON-RPC 429, compute units (Alchemy)',
      rpcError(429, 'Your app has exceeded its compute units per second capacity.'),
    ],
    ['rate-limited', 'rate phrase under -32000', rpcError(-32000, 'rate limit exceeded, slow down')],
    ['rate-limited', 'a rate-limited eth_call', asCallThrowsIt(new LimitExceededRpcError(rpcError(-32005, 'rate limit exceeded')))],
    ['rate-limited', 'a rate phrase from a custom transport', new UnknownRpcError(new Error('throttled: try again in 1 s'))],

    ['transport', 'HTTP 500', new HttpRequestError({ url, status: 500, body, details: 'Internal Server Error' })],
    ['transport', 'HTTP 502', new HttpRequestError({ url, status: 502, body, details: 'Bad Gateway' })],
    ['transport', 'a dropped connection', new HttpRequestError({ url, body, cause: new TypeError('fetch failed') })],
    ['timeout', 'a timeout', new TimeoutError({ body, url })],
    ['transport', 'a closed socket', new SocketClosedError({ url })],
    ['transport', 'a WebSocket request failure', new WebSocketRequestError({ body, url, cause: new Error('socket hang up') })],
    ['timeout', 'a timed out eth_call', asCallThrowsIt(new TimeoutError({ body, url }))],

    ['too-large', '-32005 with any message', new LimitExceededRpcError(rpcError(-32005, 'limit exceeded'))],
    ['too-large', '-32602 "block range is too large"', new InvalidParamsRpcError(rpcError(-32602, 'block range is too large'))],
    ['too-large', 'range too large', rpcError(-32000, 'query block range too large: 100 blocks, max is 50')],
    ['too-large', 'more than N results (Infura)', rpcError(-32005, 'query returned more than 10000 results')],
    ['too-large', 'exceeds max range', rpcError(-32000, 'eth_getLogs range exceeds maximum of 10000 blocks')],
    ['too-large', 'max block range (reth)', rpcError(-32602, 'query exceeds max block range 1000')],
    ['too-large', 'response size (Alchemy)', rpcError(-32000, 'Log response size exceeded.')],
    ['too-large', 'HTTP 413', new HttpRequestError({ url, status: 413, body })],
    ['too-large', 'an eth_call over HTTP 413', asCallThrowsIt(new HttpRequestError({ url, status: 413, body }))],
    [
      'too-large',
      'hardhat: returned code too large',
      asCallThrowsIt(new InternalRpcError(rpcError(-32603, 'Error: Transaction reverted: trying to deploy a contract whose code is too large'))),
    ],

    ['refused', 'geth: max code size exceeded', asCallThrowsIt(rpcError(-32000, 'max code size exceeded'))],
    ['refused', 'out of gas under the node cap', asCallThrowsIt(rpcError(-32000, 'out of gas'))],
    ['refused', 'initcode too large', asCallThrowsIt(rpcError(-32602, 'create initcode size limit'))],
    ['refused', 'no calls without to', asCallThrowsIt(rpcError(-32602, 'missing to field'))],
    ['refused', 'internal error', new InternalRpcError(rpcError(-32603, 'internal error'))],
    ['refused', 'method not found', new MethodNotFoundRpcError(rpcError(-32601, 'the method eth_getLogs does not exist'))],

    ['unknown', 'a plain timeout', new Error('The request took too long to respond.')],
    ['unknown', 'one of ours', new ChainChangedError({ blockNumber: 7n })],
    ['unknown', 'a custom transport failure without a code', new UnknownRpcError(new Error('socket hang up'))],
    ['unknown', 'not an error', 'range too large'],
    ['unknown', 'nothing', undefined],
  ])('%s: %s', (kind, _, error) => {
    expect(classifyRpcError(error)).toBe(kind)
  })
})

// The two classifiers this one replaces: `isCallRefusedError` (eth_call: split) and
// `isRangeTooLargeError` (eth_getLogs: fewer blocks). Each row names what they said.
describe('where isCallRefusedError and isRangeTooLargeError disagreed', () => {
  test.each<[RpcErrorKind, string, unknown]>([
    // call: not refused; range: too large (by code -32005): a rate limit is never "ask smaller".
    ['rate-limited', '-32005 with a rate phrase', new LimitExceededRpcError(rpcError(-32005, 'rate limit exceeded, slow down'))],
    [
      'rate-limited',
      '-32005 "request rate limited" (Infura)',
      new LimitExceededRpcError(rpcError(-32005, 'daily request count exceeded, request rate limited')),
    ],
    // call: not refused; range: too large ("limit exceeded" in the body of an HTTP 429).
    ['rate-limited', 'HTTP 429 naming a limit', new HttpRequestError({ url, status: 429, body, details: '"Monthly limit exceeded"' })],
    // call: refused (split under a rate limit); range: not too large.
    [
      'rate-limited',
      '-32007 per-second limit (QuickNode)',
      asCallThrowsIt(rpcError(-32007, '10/second request limit reached - reduce calls per second or upgrade your account')),
    ],
    // call: refused (by "rate"); range: too large (its rate phrase list lacked "throttled").
    ['rate-limited', 'throttled', new LimitExceededRpcError(rpcError(-32005, 'requests throttled, limit exceeded'))],
    // call: not refused (an HTTP error other than 413); range: too large (by phrase).
    ['too-large', 'HTTP 400 with a range phrase', new HttpRequestError({ url, status: 400, body, details: '"block range too large"' })],
    // call: refused; range: not too large (no phrase): a JSON-RPC error naming no limit.
    ['refused', 'execution error without a limit', rpcError(-32000, 'out of gas')],
    // call: not refused; range: too large (the message of any error was matched, ours too).
    ['unknown', 'a phrase in an error not from the RPC', new Error('query returned more than 10000 results')],
    // Neither recognized it: viem's client-side cap on a response (10 MB by default).
    ['too-large', 'a response over the client limit', new ResponseBodyTooLargeError({ maxSize: 10_485_760, size: 12_000_000 })],
  ])('%s: %s', (kind, _, error) => {
    expect(classifyRpcError(error)).toBe(kind)
  })
})

/** How the canned node answers the next request: an HTTP status and body, no answer, or a cut connection. */
type Answer = { status: number; body: string; json?: boolean } | 'hang' | 'destroy'

describe('as viem throws them from a node over HTTP', () => {
  let server: Server
  let answer: Answer = 'destroy'
  let nodeUrl = ''
  beforeAll(async () => {
    server = createServer((request, response) => {
      let text = ''
      request.on('data', (chunk: Buffer) => (text += chunk.toString()))
      request.on('end', () => {
        if (answer === 'destroy') return request.socket.destroy()
        if (answer === 'hang') return
        const { id } = JSON.parse(text) as { id: number }
        const body = answer.json === false ? answer.body : answer.body.replace('"id":0', `"id":${id}`)
        response.writeHead(answer.status, { 'content-type': answer.json === false ? 'text/plain' : 'application/json' }).end(body)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    nodeUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  const jsonRpcError = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code, message } })
  const failureOf = async (request: 'eth_getLogs' | 'eth_call', given: Answer): Promise<unknown> => {
    answer = given
    // Only a hanging node is to time out, and it hangs for good: any other answer gets far longer
    // than a loaded host needs (with 300 ms for all, the first answers of a busy run timed out).
    const timeout = given === 'hang' ? 300 : 30_000
    const client = createPublicClient({ transport: http(nodeUrl, { retryCount: 0, timeout, maxResponseBodySize: 1_000 }) })
    const issued =
      request === 'eth_call'
        ? call(client, { to: '0x0000000000000000000000000000000000000001', data: '0x' as Hex })
        : client.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x2710' }] })
    return issued.then(
      () => expect.unreachable('the canned node answered no error'),
      (error: unknown) => error,
    )
  }

  test.each<[RpcErrorKind, 'eth_getLogs' | 'eth_call', string, Answer]>([
    ['rate-limited', 'eth_getLogs', 'HTTP 429', { status: 429, body: 'Too Many Requests', json: false }],
    ['rate-limited', 'eth_getLogs', 'HTTP 429 with a JSON-RPC -32005 body', { status: 429, body: jsonRpcError(-32005, 'rate limit exceeded') }],
    ['rate-limited', 'eth_call', 'JSON-RPC 429 in HTTP 200', { status: 200, body: jsonRpcError(429, 'Too Many Requests') }],
    ['transport', 'eth_getLogs', 'HTTP 503', { status: 503, body: 'Service Unavailable', json: false }],
    ['timeout', 'eth_call', 'no answer within the timeout', 'hang'],
    ['transport', 'eth_getLogs', 'a cut connection', 'destroy'],
    ['too-large', 'eth_getLogs', 'HTTP 413', { status: 413, body: 'Request Entity Too Large', json: false }],
    ['too-large', 'eth_getLogs', '-32005 more than N results', { status: 200, body: jsonRpcError(-32005, 'query returned more than 10000 results') }],
    ['too-large', 'eth_getLogs', 'a response over the client limit', { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 0, result: ['0x'.padEnd(2_000, '0')] }) }],
    ['refused', 'eth_call', 'out of gas', { status: 200, body: jsonRpcError(-32000, 'out of gas') }],
    ['refused', 'eth_getLogs', 'method not found', { status: 200, body: jsonRpcError(-32601, 'the method eth_getLogs does not exist') }],
  ])('%s: %s, %s', async (kind, request, _, given) => {
    expect(classifyRpcError(await failureOf(request, given))).toBe(kind)
  })
})
