import { expect, test } from 'vitest'
import { inferenceServingAbi } from '../../chain/abi/inferenceServing.ts'
import { inferenceServingMockAbi } from '../../chain/abi/inferenceServingMock.ts'

/** An ABI entry without solc's `internalType` (0G's typechain ABI has none), keys sorted: comparable as text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'internalType')
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, entry]) => [key, canonical(entry)]),
  )
}

test('default: every entry of 0G’s ABI subset is in the mock’s ABI, with the same inputs, outputs, mutability and indexing', () => {
  const mock = new Set(inferenceServingMockAbi.map((entry) => JSON.stringify(canonical(entry))))
  const missing = inferenceServingAbi.filter((entry) => !mock.has(JSON.stringify(canonical(entry))))
  expect(missing).toEqual([])
})

test('the mock reverts with 0G’s error for an unknown provider', () => {
  expect(inferenceServingMockAbi).toContainEqual({
    inputs: [{ internalType: 'address', name: 'provider', type: 'address' }],
    name: 'ServiceNotExist',
    type: 'error',
  })
})
