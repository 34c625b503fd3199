import type { PrivateKeyAccount } from 'viem'
import { RunSettingError } from '../../errors/run.ts'
import { parseBuyerKey } from './parseBuyerKey.ts'

export type ReadRunSettingsParameters = {
  /** The local server's environment, read at each call so a fixed variable needs no restart. */
  env: Readonly<Record<string, string | undefined>>
}

export type RunSettings = {
  account: PrivateKeyAccount
  /** `MARKET_MAX_PRICE_WEI`: refuse services priced above it; null for no cap. */
  maxPrice: bigint | null
  /** `MARKET_POLL_INTERVAL_MS`: how often the job is polled until settled. */
  pollIntervalMs: number
  /**
   * `MARKET_OUTPUT_URL`: where the seller serves outputs, `{jobId}` standing for the job id
   * (the reference seller: `http://127.0.0.1:8082/outputs/{jobId}`); null to skip fetching.
   */
  outputUrl: string | null
}

const defaultPollIntervalMs = 2_000

/** Reads and checks every `run` setting before anything is paid. */
export function readRunSettings({ env }: ReadRunSettingsParameters): RunSettings {
  const account = parseBuyerKey({ privateKey: env.MARKET_PRIVATE_KEY })
  return {
    account,
    maxPrice: optional(env.MARKET_MAX_PRICE_WEI, (text) =>
      /^(0|[1-9][0-9]{0,77})$/.test(text)
        ? BigInt(text)
        : fail('MARKET_MAX_PRICE_WEI', text, 'a whole number of wei (digits only, no sign, no leading zeros)'),
    ) ?? null,
    pollIntervalMs:
      optional(env.MARKET_POLL_INTERVAL_MS, (text) =>
        /^[1-9][0-9]{0,6}$/.test(text) && Number(text) >= 50
          ? Number(text)
          : fail('MARKET_POLL_INTERVAL_MS', text, 'a whole number of milliseconds from 50 to 9999999'),
      ) ?? defaultPollIntervalMs,
    outputUrl: optional(env.MARKET_OUTPUT_URL, (text) =>
      isOutputUrlTemplate(text)
        ? text
        : fail('MARKET_OUTPUT_URL', text, 'an http:// or https:// URL containing {jobId}, e.g. http://127.0.0.1:8082/outputs/{jobId}'),
    ) ?? null,
  }
}

function optional<T>(value: string | undefined, parse: (text: string) => T): T | undefined {
  const text = value?.trim() ?? ''
  return text === '' ? undefined : parse(text)
}

function fail(variable: string, value: string, expects: string): never {
  throw new RunSettingError({ variable, value, expects })
}

function isOutputUrlTemplate(text: string): boolean {
  if (!text.includes('{jobId}')) return false
  const sample = text.replaceAll('{jobId}', '1')
  if (!URL.canParse(sample)) return false
  const { protocol } = new URL(sample)
  return protocol === 'http:' || protocol === 'https:'
}
