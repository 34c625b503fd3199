import { HttpRequestError, InvalidParamsRpcError, LimitExceededRpcError, RpcRequestError } from 'viem'
import { describe, expect, test } from 'vitest'
import { isRangeTooLargeError } from '../../server/indexer/isRangeTooLargeError.ts'

const url = 'http://127.0.0.1:8545'
const body = { method: 'eth_getLogs' }
const rpcError = (code: number, message: string) => new RpcRequestError({ body, url, error: { code, message } })

test('default', () => {
  expect(isRangeTooLargeError(new LimitExceededRpcError(rpcError(-32005, 'query returned more than 10000 results')))).toBe(true)
})

describe('recognized', () => {
  test.each([
    ['-32005 with any message', rpcError(-32005, 'limit exceeded')],
    ['-32602 "block range too large"', new InvalidParamsRpcError(rpcError(-32602, 'block range is too large'))],
    ['range too large', rpcError(-32000, 'query block range too large: 100 blocks, max is 50')],
    ['more than N results', rpcError(-32000, 'query returned more than 10000 results')],
    ['exceeds max range', rpcError(-32000, 'eth_getLogs range exceeds maximum of 10000 blocks')],
    ['response size', rpcError(-32000, 'Log response size exceeded.')],
    ['HTTP 413', new HttpRequestError({ url, status: 413, body })],
  ])('%s', (_, error) => {
    expect(isRangeTooLargeError(error)).toBe(true)
  })
})

describe('not recognized: retry as it is', () => {
  test.each([
    ['HTTP 429', new HttpRequestError({ url, status: 429, body, details: 'Too Many Requests' })],
    ['HTTP 500', new HttpRequestError({ url, status: 500, body, details: 'Internal Server Error' })],
    ['rate limit message', rpcError(-32000, 'rate limit exceeded, slow down')],
    ['internal error', rpcError(-32603, 'internal error')],
    ['a plain timeout', new Error('The request took too long to respond.')],
    ['not an error', 'range too large'],
  ])('%s', (_, error) => {
    expect(isRangeTooLargeError(error)).toBe(false)
  })
})
