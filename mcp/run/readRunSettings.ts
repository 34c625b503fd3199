import { isAbsolute, join } from 'node:path'
import { formatEther, getAddress, isAddress, type Address, type PrivateKeyAccount } from 'viem'
import { userFolder } from '../../config/userFolder.ts'
import { PositiveIdSchema, UintStringSchema } from '../../contract/primitives.ts'
import { RunSettingError } from '../../errors/run.ts'
import { type OutputSettings, outputSettingsHelp, readOutputSettings } from '../output/readOutputSettings.ts'
import { defaultSpendLimits } from '../spend/defaultSpendLimits.ts'
import { parseBuyerKey } from './parseBuyerKey.ts'

export type ReadRunSettingsParameters = {
  /** The local server's environment, read at each call so a fixed variable needs no restart. */
  env: Readonly<Record<string, string | undefined>>
}

/**
 * Limits only the person sets: they live in the server's environment, which the agent calling
 * `run` cannot change.
 */
export type SpendSettings = {
  /** `MARKET_SPEND_LIMIT_WEI`: the most `run` may escrow in any 24 hours (0.05 native token unset); null for `none`. */
  limit: bigint | null
  /** Whether `limit` is the default, the variable being unset: refusals say so. */
  limitIsDefault: boolean
  /** `MARKET_SPEND_LEDGER`: where payments are counted, shared by every server of this person. */
  ledgerPath: string
  /** `MARKET_ALLOWED_SERVICES`: the only service ids `run` may pay; null for any. */
  allowedServices: readonly bigint[] | null
  /** `MARKET_ALLOWED_SELLERS`: the only sellers `run` may pay (EIP-55); null for any. */
  allowedSellers: readonly Address[] | null
  /** `MARKET_CONFIRM_ABOVE_WEI`: a price above it needs the person's confirmation; null for never. */
  confirmAbove: bigint | null
}

/** `MARKET_REQUIRE_TEE`: the least TEE verdict `run` pays; `off` checks none. */
export const teeRequirements = ['verified', 'acknowledged', 'off'] as const
export type TeeRequirement = (typeof teeRequirements)[number]

export type RunSettings = {
  account: PrivateKeyAccount
  /** `MARKET_REQUIRE_TEE` (verified unset). */
  requireTee: TeeRequirement
  /** Whether `requireTee` is the default, the variable being unset: refusals say so. */
  requireTeeIsDefault: boolean
  /** `MARKET_MAX_PRICE_WEI`: refuse services priced above it (0.01 native token unset); null for `none`. */
  maxPrice: bigint | null
  /** Whether `maxPrice` is the default, the variable being unset: refusals say so. */
  maxPriceIsDefault: boolean
  /** `MARKET_POLL_INTERVAL_MS`: how often the job is polled until settled. */
  pollIntervalMs: number
  /** `MARKET_OUTPUT_URLS`, `MARKET_OUTPUT_URL` + `MARKET_OUTPUT_SELLER`, `MARKET_MAX_OUTPUT_BYTES`: each seller's output endpoint. */
  output: OutputSettings
  spend: SpendSettings
}

const defaultPollIntervalMs = 2_000
const minPollIntervalMs = 50
const maxPollIntervalMs = 9_999_999
const weiExpects = 'a whole number of wei (digits only, no sign, no leading zeros)'
const limitExpects = `${weiExpects}, or none for no limit`

/** `~/.tee-market/spend.json`: one ledger per person, whichever client starts the server. */
export const defaultSpendLedgerPath = join(userFolder, 'spend.json')

/** The environment variables `run` reads, as `--help` lines. */
export const runSettingsHelp = `  MARKET_PRIVATE_KEY        the buyer wallet's private key (0x + 64 hex digits); only run uses it, never shown
  MARKET_MAX_PRICE_WEI      refuse a service priced above this many wei per call
                            (default ${defaultSpendLimits.maxPriceWei} = ${formatEther(defaultSpendLimits.maxPriceWei)} native token; none for no cap)
  MARKET_SPEND_LIMIT_WEI    the most run may escrow in any 24 hours, counted in the ledger across restarts
                            (default ${defaultSpendLimits.spendLimitWei} = ${formatEther(defaultSpendLimits.spendLimitWei)} native token; none for no limit)
  MARKET_SPEND_LEDGER       the ledger file, always kept (absolute path; default ~/.tee-market/spend.json)
  MARKET_ALLOWED_SERVICES   the only service ids run may pay, comma-separated
  MARKET_ALLOWED_SELLERS    the only seller addresses run may pay, comma-separated
  MARKET_CONFIRM_ABOVE_WEI  above this price the person confirms each payment (MCP elicitation)
  MARKET_REQUIRE_TEE        the least TEE verdict run pays, checked here from the provider's evidence:
                            verified (default), acknowledged (also 0G's owner's word), or off
${outputSettingsHelp}
  MARKET_POLL_INTERVAL_MS   how often a job is polled until settled (default 2000)`

/** Reads and checks every `run` setting before anything is paid. */
export function readRunSettings({ env }: ReadRunSettingsParameters): RunSettings {
  const account = parseBuyerKey({ privateKey: env.MARKET_PRIVATE_KEY })
  const maxPrice = readLimit(env, 'MARKET_MAX_PRICE_WEI', defaultSpendLimits.maxPriceWei)
  const spendLimit = readLimit(env, 'MARKET_SPEND_LIMIT_WEI', defaultSpendLimits.spendLimitWei)
  const requireTee = optional(env.MARKET_REQUIRE_TEE, (text) =>
    (teeRequirements as readonly string[]).includes(text) ? (text as TeeRequirement) : fail('MARKET_REQUIRE_TEE', text, 'verified, acknowledged or off'),
  )
  return {
    account,
    requireTee: requireTee ?? 'verified',
    requireTeeIsDefault: requireTee === undefined,
    maxPrice: maxPrice.wei,
    maxPriceIsDefault: maxPrice.isDefault,
    pollIntervalMs:
      optional(env.MARKET_POLL_INTERVAL_MS, (text) => {
        const ms = isUint(text) ? Number(text) : 0
        if (ms >= minPollIntervalMs && ms <= maxPollIntervalMs) return ms
        return fail('MARKET_POLL_INTERVAL_MS', text, `a whole number of milliseconds from ${minPollIntervalMs} to ${maxPollIntervalMs}`)
      }) ?? defaultPollIntervalMs,
    output: readOutputSettings({ env }),
    spend: {
      limit: spendLimit.wei,
      limitIsDefault: spendLimit.isDefault,
      ledgerPath:
        optional(env.MARKET_SPEND_LEDGER, (text) =>
          isAbsolute(text) ? text : fail('MARKET_SPEND_LEDGER', text, 'an absolute file path, e.g. /home/me/.tee-market/spend.json'),
        ) ?? defaultSpendLedgerPath,
      allowedServices: readList(env, 'MARKET_ALLOWED_SERVICES', 'a comma-separated list of service ids, e.g. 1,4', (item) =>
        PositiveIdSchema.safeParse(item).success ? BigInt(item) : undefined,
      ),
      allowedSellers: readList(env, 'MARKET_ALLOWED_SELLERS', 'a comma-separated list of seller addresses (0x + 40 hex digits)', (item) =>
        isAddress(item, { strict: false }) ? getAddress(item) : undefined,
      ),
      confirmAbove: readWei(env, 'MARKET_CONFIRM_ABOVE_WEI'),
    },
  }
}

function readWei(env: ReadRunSettingsParameters['env'], variable: string): bigint | null {
  return optional(env[variable], (text) => (isUint(text) ? BigInt(text) : fail(variable, text, weiExpects))) ?? null
}

/** A limit the person may only raise or lift (`none`): unset, it is the default, never "no limit". */
function readLimit(env: ReadRunSettingsParameters['env'], variable: string, fallback: bigint): { wei: bigint | null; isDefault: boolean } {
  const wei = optional(env[variable], (text) =>
    text.toLowerCase() === 'none' ? null : isUint(text) ? BigInt(text) : fail(variable, text, limitExpects),
  )
  return wei === undefined ? { wei: fallback, isDefault: true } : { wei, isDefault: false }
}

/** A comma-separated list; an empty one, or one with an item `parse` rejects, is refused rather than read as "anything". */
function readList<item>(
  env: ReadRunSettingsParameters['env'],
  variable: string,
  expects: string,
  parse: (item: string) => item | undefined,
): item[] | null {
  return (
    optional(env[variable], (text) => {
      const items = text.split(',').map((part) => part.trim()).filter((part) => part !== '')
      const parsed = items.map(parse)
      if (items.length === 0 || parsed.some((item) => item === undefined)) fail(variable, text, expects)
      return parsed as item[]
    }) ?? null
  )
}

function isUint(text: string): boolean {
  return UintStringSchema.safeParse(text).success
}

function optional<T>(value: string | undefined, parse: (text: string) => T): T | undefined {
  const text = value?.trim() ?? ''
  return text === '' ? undefined : parse(text)
}

function fail(variable: string, value: string, expects: string): never {
  throw new RunSettingError({ variable, value, expects })
}
