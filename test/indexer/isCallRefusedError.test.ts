import {
  CallExecutionError,
  HttpRequestError,
  InternalRpcError,
  LimitExceededRpcError,
  RpcRequestError,
  TimeoutError,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { isCallRefusedError } from '../../chain/read/isCallRefusedError.ts'

const url = 'http://127.0.0.1:8545'
const body = { method: 'eth_call' }
const rpcError = (code: number, message: string) => new RpcRequestError({ body, url, error: { code, message } })
const asViemThrowsIt = (cause: Error) => new CallExecutionError(cause as never, {})

test('default', () => {
  const message = 'Error: Transaction reverted: trying to deploy a contract whose code is too large'
  const hardhat = new InternalRpcError(rpcError(-32603, message))
  expect(isCallRefusedError(asViemThrowsIt(hardhat))).toBe(true)
})

describe('refused: ask for fewer records', () => {
  test.each([
    ['geth: max code size exceeded', rpcError(-32000, 'max code size exceeded')],
    ['out of gas under the node cap', rpcError(-32000, 'out of gas')],
    ['initcode too large', rpcError(-32602, 'create initcode size limit')],
    ['no calls without to', rpcError(-32602, 'missing to field')],
    ['HTTP 413', new HttpRequestError({ url, status: 413, body })],
  ])('%s', (_, error) => {
    expect(isCallRefusedError(asViemThrowsIt(error))).toBe(true)
  })
})

describe('not refused: propagate to the retry with backoff', () => {
  test.each([
    ['HTTP 429', new HttpRequestError({ url, status: 429, body, details: 'Too Many Requests' })],
    ['HTTP 500', new HttpRequestError({ url, status: 500, body, details: 'Internal Server Error' })],
    ['a dropped connection', new HttpRequestError({ url, body, details: 'fetch failed' })],
    ['a timeout', new TimeoutError({ body, url })],
    ['rate limit in a JSON-RPC error', new LimitExceededRpcError(rpcError(-32005, 'rate limit exceeded, slow down'))],
    ['JSON-RPC error code 429', rpcError(429, 'Too Many Requests')],
    ['not an error', 'out of gas'],
  ])('%s', (_, error) => {
    expect(isCallRefusedError(error instanceof Error ? asViemThrowsIt(error) : error)).toBe(false)
  })
})
