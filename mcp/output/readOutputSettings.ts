import { type Address, getAddress, isAddress } from 'viem'
import { UintStringSchema } from '../../contract/primitives.ts'
import { RunSettingError } from '../../errors/run.ts'

export type ReadOutputSettingsParameters = {
  env: Readonly<Record<string, string | undefined>>
}

/** Where and how much of a job's output `run` fetches. */
export type OutputSettings = {
  /**
   * Each seller's output endpoint (EIP-55 address to template, `{jobId}` standing for the job id),
   * from `MARKET_OUTPUT_URLS` and `MARKET_OUTPUT_URL` + `MARKET_OUTPUT_SELLER`. A request signed
   * for a seller is sent only to its own endpoint.
   */
  endpoints: ReadonlyMap<Address, string>
  /** `MARKET_OUTPUT_URL` given without `MARKET_OUTPUT_SELLER`: bound to no seller, so never used; kept to say so. */
  unboundUrl: string | null
  /** `MARKET_MAX_OUTPUT_BYTES`: the most bytes of an answer read. */
  maxBytes: number
}

/**
 * 4 MiB: an output is text for an agent's context, and the largest context windows (about a
 * million tokens) hold about 4 MB of text, so more could not be used. Measured on the devnet, the
 * stdio server checking an accepted 4 MiB body peaked at 120 MiB resident (VmHWM), as without one.
 */
const defaultMaxOutputBytes = 4 * 1_024 * 1_024
/**
 * 16 MiB: the server holds an answer several times while checking it (bytes, string, JSON,
 * UTF-8 for the hash). Measured on the devnet, an accepted body of 16 MiB peaked the stdio
 * server at 158 MiB resident (VmHWM) and one of 64 MiB at 402 MiB, past the 300 MB it may use.
 */
const maxMaxOutputBytes = 16 * 1_024 * 1_024

const templateExpects = 'an http:// or https:// URL containing {jobId}, e.g. http://127.0.0.1:8082/outputs/{jobId}'
const pairExpects =
  'comma-separated seller=URL pairs: a seller address (0x + 40 hex digits), "=", and an http:// or https:// URL containing {jobId} and no comma'

/** The output settings' `--help` lines. */
export const outputSettingsHelp = `  MARKET_OUTPUT_URLS        each seller's output endpoint: seller=URL pairs, comma-separated, {jobId} for the job id
  MARKET_OUTPUT_URL         one seller's output endpoint, {jobId} for the job id; used only with MARKET_OUTPUT_SELLER
  MARKET_OUTPUT_SELLER      the seller address MARKET_OUTPUT_URL serves: other sellers' jobs never reach it
  MARKET_MAX_OUTPUT_BYTES   the most bytes of an output answer read (default ${defaultMaxOutputBytes} = 4 MiB; at most ${maxMaxOutputBytes})`

/** Reads and checks the output settings; throws `RunSettingError` naming the variable. */
export function readOutputSettings({ env }: ReadOutputSettingsParameters): OutputSettings {
  const endpoints = new Map<Address, string>()
  const pairs = text(env.MARKET_OUTPUT_URLS)
  if (pairs !== undefined) {
    for (const pair of pairs.split(',').map((part) => part.trim())) {
      const separator = pair.indexOf('=')
      const seller = readSeller(pair.slice(0, separator).trim())
      const template = pair.slice(separator + 1).trim()
      if (separator < 0 || seller === undefined || !isOutputUrlTemplate(template)) {
        throw new RunSettingError({ variable: 'MARKET_OUTPUT_URLS', value: pair, expects: pairExpects })
      }
      if (endpoints.has(seller)) {
        throw new RunSettingError({ variable: 'MARKET_OUTPUT_URLS', value: pairs, expects: `a list naming each seller once (${seller} is named twice)` })
      }
      endpoints.set(seller, template)
    }
  }
  const url = text(env.MARKET_OUTPUT_URL)
  if (url !== undefined && !isOutputUrlTemplate(url)) throw new RunSettingError({ variable: 'MARKET_OUTPUT_URL', value: url, expects: templateExpects })
  const sellerText = text(env.MARKET_OUTPUT_SELLER)
  const seller = sellerText === undefined ? undefined : readSeller(sellerText)
  if (sellerText !== undefined && (seller === undefined || url === undefined || endpoints.has(seller))) {
    throw new RunSettingError({
      variable: 'MARKET_OUTPUT_SELLER',
      value: sellerText,
      expects: 'a seller address (0x + 40 hex digits), given with MARKET_OUTPUT_URL, for a seller not in MARKET_OUTPUT_URLS',
    })
  }
  if (url !== undefined && seller !== undefined) endpoints.set(seller, url)
  return { endpoints, unboundUrl: url !== undefined && seller === undefined ? url : null, maxBytes: readMaxBytes(env.MARKET_MAX_OUTPUT_BYTES) }
}

function readMaxBytes(value: string | undefined): number {
  const given = text(value)
  if (given === undefined) return defaultMaxOutputBytes
  const bytes = UintStringSchema.safeParse(given).success ? Number(given) : 0
  if (bytes >= 1 && bytes <= maxMaxOutputBytes) return bytes
  throw new RunSettingError({ variable: 'MARKET_MAX_OUTPUT_BYTES', value: given, expects: `a whole number of bytes from 1 to ${maxMaxOutputBytes}` })
}

function readSeller(value: string): Address | undefined {
  return isAddress(value, { strict: false }) ? getAddress(value) : undefined
}

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim() ?? ''
  return trimmed === '' ? undefined : trimmed
}

function isOutputUrlTemplate(template: string): boolean {
  if (!template.includes('{jobId}')) return false
  const sample = template.replaceAll('{jobId}', '1')
  if (!URL.canParse(sample)) return false
  const { protocol } = new URL(sample)
  return protocol === 'http:' || protocol === 'https:'
}
