import { expect, test } from 'vitest'
import { createTransactionIndex, sameSlot } from '../../server/store/createTransactionIndex.ts'

const hash = (prefix: string, rest: string): string => `0x${prefix}${rest.repeat(64 - prefix.length)}`

test('default: keys by transaction, each kept once, one slot per transaction', () => {
  const index = createTransactionIndex<number>()
  index.add(hash('abcdef1', '0'), 7)
  index.add(hash('abcdef1', '0'), 7)
  index.add(hash('1234567', '0'), 8)
  expect(index.get(hash('abcdef1', '0'))).toEqual([7])
  expect(index.get(hash('1234567', '0'))).toEqual([8])
  expect(index.get(hash('7654321', '0'))).toEqual([])
  expect(index.size).toBe(2)
})

test('transactions sharing the first 28 bits share a slot: both keys come back, and go one by one', () => {
  const index = createTransactionIndex<bigint>()
  const a = hash('abcdef1', '0')
  const b = hash('abcdef1', 'f')
  expect(sameSlot(a, b)).toBe(true)
  expect(sameSlot(a, hash('abcdef2', '0'))).toBe(false)
  index.add(a, 1n)
  index.add(b, 2n)
  expect(index.get(a)).toEqual([1n, 2n])
  expect(index.get(b)).toEqual([1n, 2n])
  index.remove(a, 1n)
  expect(index.get(b)).toEqual([2n])
  index.remove(b, 2n)
  expect(index.size).toBe(0)
})

test('clear forgets every slot', () => {
  const index = createTransactionIndex<number>()
  index.add(hash('abcdef1', '0'), 1)
  index.clear()
  expect(index.size).toBe(0)
  expect(index.get(hash('abcdef1', '0'))).toEqual([])
})
