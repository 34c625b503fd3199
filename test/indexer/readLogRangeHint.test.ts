import { ResponseBodyTooLargeError, RpcRequestError } from 'viem'
import { expect, test } from 'vitest'
import { readLogRangeHint } from '../../chain/rpc/readLogRangeHint.ts'

/** What providers answer to a too-wide `eth_getLogs`, as reported by their users and docs. */
const refusals: [message: string, hint: ReturnType<typeof readLogRangeHint>][] = [
  ['query block range too large: 9000 blocks, max is 2000', { blocks: 2000n, kind: 'limit' }],
  ['exceed maximum block range: 5000', { blocks: 5000n, kind: 'limit' }],
  ['maximum [from, to] blocks distance: 10000', { blocks: 10000n, kind: 'limit' }],
  ['eth_getLogs is limited to a 10,000 range', { blocks: 10000n, kind: 'limit' }],
  ['requested too many blocks from 1 to 9000, maximum is set to 2048', { blocks: 2048n, kind: 'limit' }],
  ['block range limit (1024)', { blocks: 1024n, kind: 'limit' }],
  [
    'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [0x1, 0x7d0]',
    { blocks: 2000n, kind: 'limit' },
  ],
  ['query returned more than 10000 results. Try with this block range [0x10, 0x1f].', { blocks: 16n, kind: 'suggestion' }],
  ['query returned more than 10000 results', { kind: 'answer', logs: 10000n }],
  ['Query returned more than 10,000 logs', { kind: 'answer', logs: 10000n }],
  ['Log response size exceeded.', { kind: 'answer' }],
  ['response size exceeds 10 MB', { kind: 'answer' }],
  ['block range is too wide', undefined],
  ['Block range limit exceeded', undefined],
]

test.each(refusals)('%s', (message, hint) => {
  expect(readLogRangeHint(new Error(message))).toEqual(hint)
})

test("viem's own cap on an answer's size is an answer too big", () => {
  expect(readLogRangeHint(new Error('eth_getLogs failed', { cause: new ResponseBodyTooLargeError({ maxSize: 10_000_000, size: 20_000_000 }) }))).toEqual({ kind: 'answer' })
})

test("the node's words are found in viem's error, under its wrappers", () => {
  const error = new Error('eth_getLogs failed', {
    cause: new RpcRequestError({ body: {}, url: 'http://127.0.0.1', error: { code: -32005, message: 'query block range too large: 9000 blocks, max is 2000' } }),
  })
  expect(readLogRangeHint(error)).toEqual({ blocks: 2000n, kind: 'limit' })
})
