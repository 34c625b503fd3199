import type { Hex, PrivateKeyAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { BuyerKeyMalformedError, BuyerKeyMissingError } from '../../errors/run.ts'

export type ParseBuyerKeyParameters = {
  /** The raw `MARKET_PRIVATE_KEY` value: 0x + 64 hex, or 64 hex. */
  privateKey: string | undefined
}

export type ParseBuyerKeyReturnType = PrivateKeyAccount

/**
 * Turns `MARKET_PRIVATE_KEY` into a signing account. Errors name the variable, never its value,
 * and drop viem's cause (whose message could quote the key).
 */
export function parseBuyerKey({ privateKey }: ParseBuyerKeyParameters): ParseBuyerKeyReturnType {
  const trimmed = privateKey?.trim() ?? ''
  if (trimmed === '') throw new BuyerKeyMissingError()
  const hex = trimmed.startsWith('0x') || trimmed.startsWith('0X') ? trimmed.slice(2) : trimmed
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new BuyerKeyMalformedError()
  try {
    return privateKeyToAccount(`0x${hex.toLowerCase()}` as Hex)
  } catch {
    // Zero or ≥ the curve order: 64 hex digits that are not a secp256k1 private key.
    throw new BuyerKeyMalformedError()
  }
}
