import { extendApi } from '@anatine/zod-openapi'
import { checksumAddress, type Address, type Hex } from 'viem'
import { z } from 'zod'

/** uint256 has at most 78 decimal digits. */
const maxUintDigits = 78

/** A canonical decimal unsigned integer: uint256 values, ids, amounts, timestamps, block numbers. */
export const UintStringSchema = extendApi(
  z
    .string()
    .regex(/^(0|[1-9][0-9]*)$/, {
      message: 'Expected a canonical decimal unsigned integer: digits only, no sign, no leading zeros.',
    })
    .max(maxUintDigits, { message: `Expected at most ${maxUintDigits} digits.` })
    .describe('Unsigned integer as a canonical decimal string (no sign, no leading zeros, at most 78 digits).'),
  { example: '42' },
)

/**
 * A canonical decimal integer greater than zero: the MCP tools' "stringified positive integer"
 * ids. Chain ids start at 1, so "0" can never name a service or job.
 */
export const PositiveIdSchema = extendApi(
  z
    .string()
    .regex(/^[1-9][0-9]*$/, {
      message: 'Expected a stringified positive integer such as "1": digits only, no sign, no leading zeros.',
    })
    .max(maxUintDigits, { message: `Expected at most ${maxUintDigits} digits.` })
    .describe('Positive integer as a canonical decimal string, e.g. "1".'),
  { example: '1' },
)

const addressPattern = /^0x[0-9a-fA-F]{40}$/

/** An address as we output it: EIP-55 checksummed. */
export const AddressSchema = extendApi(
  z
    .string()
    .regex(addressPattern, { message: 'Expected 0x followed by 40 hex digits.' })
    .refine((value) => checksumAddress(value as Address) === value, {
      message: 'Expected an EIP-55 checksummed address.',
    })
    .transform((value) => value as Address)
    .describe('EIP-55 checksummed address: 0x followed by 40 hex digits.'),
  { example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
)

/** An address as users may type it: any case, checksum not required. */
export const AddressInputSchema = extendApi(
  z
    .string()
    .regex(addressPattern, { message: 'Expected 0x followed by 40 hex digits (any case).' })
    .describe('Address: 0x followed by 40 hex digits, any case; the checksum is not checked.'),
  { example: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
)

/** A bytes32 value: lowercase 0x + 64 hex. */
export const Bytes32Schema = extendApi(
  z
    .string()
    .regex(/^0x[0-9a-f]{64}$/, { message: 'Expected 0x followed by 64 lowercase hex digits.' })
    .transform((value) => value as Hex)
    .describe('32 bytes as lowercase hex: 0x followed by 64 hex digits.'),
  { example: '0x8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4' },
)

/** Arbitrary bytes: lowercase 0x + an even number of hex digits (lossless). */
export const HexSchema = extendApi(
  z
    .string()
    .regex(/^0x(?:[0-9a-f]{2})*$/, { message: 'Expected 0x followed by an even number of lowercase hex digits.' })
    .transform((value) => value as Hex)
    .describe('Bytes as lowercase hex: 0x followed by an even number of hex digits.'),
  { example: '0x68656c6c6f' },
)

/** A transaction hash as users may paste it: 0x + 64 hex digits in any case (we answer it in lowercase). */
export const TransactionHashInputSchema = extendApi(
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, { message: 'Expected a transaction hash: 0x followed by 64 hex digits (any case).' })
    .describe('Transaction hash: 0x followed by 64 hex digits, any case.'),
  { example: '0x8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4' },
)
