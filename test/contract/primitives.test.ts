import { describe, expect, test } from 'vitest'
import {
  AddressInputSchema,
  AddressSchema,
  Bytes32Schema,
  HexSchema,
  PositiveIdSchema,
  UintStringSchema,
} from '../../contract/primitives.ts'

const digits78 = '9'.repeat(78)
const digits79 = '1'.repeat(79)

// Hardhat account #1: its EIP-55 form mixes cases, so a wrong case is detectable.
const checksummed = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('UintStringSchema', () => {
  test.each(['0', '1', '42', '999999', digits78])('accepts %s', (value) => {
    expect(UintStringSchema.parse(value)).toBe(value)
  })

  test.each(['-1', '0x1', '1.0', '01', '00', 'abc', '', ' 1', '1 ', '+1', '1e3', digits79])('rejects %j', (value) => {
    expect(UintStringSchema.safeParse(value).success).toBe(false)
  })

  test('rejects a number', () => {
    expect(UintStringSchema.safeParse(1).success).toBe(false)
  })

  test('explains what is allowed', () => {
    const result = UintStringSchema.safeParse('01')
    expect(result.error?.issues.map((issue) => issue.message)).toMatchInlineSnapshot(`
      [
        "Expected a canonical decimal unsigned integer: digits only, no sign, no leading zeros.",
      ]
    `)
  })

  test('a too-long number says so', () => {
    expect(UintStringSchema.safeParse(digits79).error?.issues.map((issue) => issue.message)).toEqual([
      'Expected at most 78 digits.',
    ])
  })
})

describe('PositiveIdSchema', () => {
  test.each(['1', '16661', digits78])('accepts %s', (value) => {
    expect(PositiveIdSchema.parse(value)).toBe(value)
  })

  test.each(['0', '-1', '01', 'abc', '1.5', '', digits79])('rejects %j', (value) => {
    expect(PositiveIdSchema.safeParse(value).success).toBe(false)
  })
})

describe('AddressSchema', () => {
  test('accepts an EIP-55 checksummed address', () => {
    expect(AddressSchema.parse(checksummed)).toBe(checksummed)
  })

  test('accepts an address whose checksum form has no letters to case', () => {
    const allDigits = '0x1111111111111111111111111111111111111111'
    expect(AddressSchema.parse(allDigits)).toBe(allDigits)
  })

  test.each([
    ['lowercase', checksummed.toLowerCase()],
    ['uppercase hex', `0x${checksummed.slice(2).toUpperCase()}`],
    ['one letter of the wrong case', checksummed.replace('C5', 'c5')],
  ])('rejects a wrong checksum: %s', (_, value) => {
    const result = AddressSchema.safeParse(value)
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('Expected an EIP-55 checksummed address.')
  })

  test.each([checksummed.slice(0, -1), `${checksummed}0`, checksummed.slice(2), `0X${checksummed.slice(2)}`])(
    'rejects a malformed address %j',
    (value) => {
      expect(AddressSchema.safeParse(value).success).toBe(false)
    },
  )
})

describe('AddressInputSchema', () => {
  test.each([checksummed, checksummed.toLowerCase(), `0x${checksummed.slice(2).toUpperCase()}`])(
    'accepts any case: %s',
    (value) => {
      expect(AddressInputSchema.parse(value)).toBe(value)
    },
  )

  test.each([
    checksummed.slice(0, -1),
    `${checksummed}0`,
    checksummed.slice(2),
    `0X${checksummed.slice(2)}`,
    `0x${'g'.repeat(40)}`,
    '',
  ])('rejects %j', (value) => {
    expect(AddressInputSchema.safeParse(value).success).toBe(false)
  })
})

describe('Bytes32Schema', () => {
  test('accepts lowercase 0x + 64 hex', () => {
    const value = `0x${'ab'.repeat(32)}`
    expect(Bytes32Schema.parse(value)).toBe(value)
  })

  test.each([`0x${'AB'.repeat(32)}`, `0x${'ab'.repeat(31)}`, `0x${'ab'.repeat(33)}`, 'ab'.repeat(32)])(
    'rejects %j',
    (value) => {
      expect(Bytes32Schema.safeParse(value).success).toBe(false)
    },
  )
})

describe('HexSchema', () => {
  test.each(['0x', '0x00', '0x68656c6c6f'])('accepts %s', (value) => {
    expect(HexSchema.parse(value)).toBe(value)
  })

  test.each(['0x0', '0xABCD', '68656c6c6f', '0xzz'])('rejects %j', (value) => {
    expect(HexSchema.safeParse(value).success).toBe(false)
  })
})
