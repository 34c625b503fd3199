import { describe, expect, test } from 'vitest'
import { IncompleteLogsError, MissingCreationsError } from '../../errors/chain.ts'
import { countCreations, type CountCreationsParameters } from '../../server/indexer/countCreations.ts'

const window = { kind: 'job', fromBlock: 100n, toBlock: 199n, nextAtEnd: undefined } as const
const count = (parameters: Partial<CountCreationsParameters> & Pick<CountCreationsParameters, 'created' | 'nextBefore'>) =>
  countCreations({ ...window, ...parameters })

describe('counted from the last count', () => {
  test('consecutive ids continue it', () => {
    expect(count({ created: [5n, 6n, 7n], nextBefore: 5n })).toEqual({ next: 8n, lead: undefined })
  })

  test('no creation keeps it', () => {
    expect(count({ created: [], nextBefore: 5n })).toEqual({ next: 5n, lead: undefined })
  })

  test('a gap before the first id: missing, from the count on', () => {
    expect(() => count({ created: [7n, 8n], nextBefore: 5n })).toThrow(MissingCreationsError)
    expect(() => count({ created: [7n, 8n], nextBefore: 5n })).toThrow(/jobs 5 to 6 were created by block 199/)
  })

  test('a gap between ids: missing', () => {
    const error = (() => {
      try {
        count({ created: [5n, 7n], nextBefore: 5n })
      } catch (caught) {
        return caught
      }
    })()
    expect(error).toBeInstanceOf(MissingCreationsError)
    expect(error).toMatchObject({ kind: 'job', fromId: 6n, code: 'incomplete_logs' })
  })

  test('an id repeated, out of order or below the count: the answer is wrong, not short', () => {
    for (const created of [[5n, 5n], [5n, 6n, 5n], [4n]]) {
      const run = () => count({ created, nextBefore: 5n })
      expect(run).toThrow(IncompleteLogsError)
      expect(run).not.toThrow(MissingCreationsError)
    }
  })
})

describe('checked at the end', () => {
  test('the count reaching the next id passes', () => {
    expect(count({ created: [5n, 6n], nextBefore: 5n, nextAtEnd: 7n })).toEqual({ next: 7n, lead: undefined })
  })

  test('a next id past the count: the last ids are missing (here or earlier)', () => {
    expect(() => count({ created: [5n], nextBefore: 5n, nextAtEnd: 8n })).toThrow(/jobs 6 to 7 were created/)
    expect(() => count({ created: [], nextBefore: 5n, nextAtEnd: 6n, kind: 'service' })).toThrow(/services 5 were created|service/)
  })

  test('a next id below the count: the node contradicts its own logs', () => {
    const run = () => count({ created: [5n, 6n], nextBefore: 5n, nextAtEnd: 6n })
    expect(run).toThrow(/contract's next job id at block 199 is 6/)
    expect(run).not.toThrow(MissingCreationsError)
  })
})

describe('from nothing counted', () => {
  test('the first id seen leads, consecutive ones follow', () => {
    expect(count({ created: [9n, 10n], nextBefore: undefined })).toEqual({ next: 11n, lead: 9n })
  })

  test('no creation and no check: still unknown', () => {
    expect(count({ created: [], nextBefore: undefined })).toEqual({ next: undefined, lead: undefined })
  })

  test('no creation, checked: the next id at the end leads', () => {
    expect(count({ created: [], nextBefore: undefined, nextAtEnd: 4n })).toEqual({ next: 4n, lead: 4n })
  })

  test('a gap after the lead is still missing', () => {
    expect(() => count({ created: [9n, 11n], nextBefore: undefined })).toThrow(MissingCreationsError)
  })
})
