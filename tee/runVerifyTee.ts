import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { TeeEvidenceSchema, type TeeVerdict } from '../contract/tee.ts'
import { ConfigSchema } from '../config/ConfigSchema.ts'
import { configDefaults, configSources } from '../config/loadConfig.ts'
import { TeeEvidenceFileError } from '../errors/tee.ts'
import { type TeePolicySettings, type ToTeePolicyReturnType, teePolicyKeys, toTeePolicy } from './toTeePolicy.ts'
import { verifyTeeEvidence } from './verifyTeeEvidence.ts'

export type RunVerifyTeeParameters = {
  argv: readonly string[]
  stdout: (text: string) => void
  stderr: (text: string) => void
}

export const verifyTeeUsage = `Usage: npm run tee:verify -- <evidence.json> [--at <ISO time>] [--root-ca <file>] [policy]
       tee-market-mcp verify-tee <evidence.json> [--at <ISO time>] [--root-ca <file>] [policy]

Verifies one TEE evidence file (GET /v1/services/:id/tee/evidence) offline: the TDX quote, its
TCB, the key binding (with the nonce sent), the compose hash, the allow-lists. Prints each check
and the verdict.

  --at <ISO time>    the time to verify at (default: the evidence's fetchedAt)
  --root-ca <file>   the root certificate to trust instead of Intel's, as DER hex (a devnet's)

The policy, as the indexer's settings of the same names (comma-separated, or repeated):
  --tee-tcb-statuses <list>        TCB statuses accepted (default ${configDefaults.teeTcbStatuses})
  --tee-allowed-advisories <list>  Intel advisory ids allowed beyond them (default none)
  --tee-compose-hashes <list>      compose hashes allowed (default any: measured, not appraised)
  --tee-mrtds <list>               MRTDs allowed (default any)

Exit status: 0 verified, 1 not verified, 2 bad usage or an unreadable file.`

/** The command's work, apart from the process: its exit status. */
export async function runVerifyTee({ argv, stdout, stderr }: RunVerifyTeeParameters): Promise<0 | 1 | 2> {
  let parsed: ReturnType<typeof parseVerifyTeeArgs>
  try {
    parsed = parseVerifyTeeArgs(argv)
  } catch (error) {
    stderr(`${(error as Error).message}\n\n${verifyTeeUsage}\n`)
    return 2
  }
  if (parsed === 'help') {
    stdout(`${verifyTeeUsage}\n`)
    return 0
  }
  try {
    const evidence = await readEvidence(parsed.file)
    const rootCa = parsed.rootCa === undefined ? undefined : await readRootCa(parsed.rootCa)
    const verdict = verifyTeeEvidence({ evidence, at: parsed.at, rootCa, ...parsed.policy })
    stdout(formatVerdict(verdict))
    if (evidence.rootCa !== null && rootCa === undefined) stdout("note: the evidence names a root of its own (not Intel's); it is trusted only when given with --root-ca.\n")
    return verdict.verdict === 'verified' ? 0 : 1
  } catch (error) {
    stderr(`${(error as Error).message}\n`)
    return 2
  }
}

type VerifyTeeArgs = { file: string; at: Date | undefined; rootCa: string | undefined; policy: ToTeePolicyReturnType }

const policyOptions = Object.fromEntries(teePolicyKeys.map((key) => [configSources[key].flag, { type: 'string', multiple: true } as const]))

function parseVerifyTeeArgs(argv: readonly string[]): 'help' | VerifyTeeArgs {
  const options = { at: { type: 'string' }, 'root-ca': { type: 'string' }, help: { type: 'boolean', short: 'h' }, ...policyOptions } as const
  const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, options })
  if (values.help === true) return 'help'
  if (positionals.length !== 1) throw new Error(`One evidence file is expected; ${positionals.length} were given.`)
  const at = values.at === undefined ? undefined : new Date(values.at)
  if (at !== undefined && Number.isNaN(at.getTime())) throw new Error(`--at ${JSON.stringify(values.at)} is not an ISO 8601 time, e.g. 2025-07-01T00:00:00Z.`)
  return { file: positionals[0]!, at, rootCa: values['root-ca'], policy: readPolicyFlags(values as Record<string, string[] | undefined>) }
}

/** The policy flags, read by the configuration's own fields, each defaulting as the indexer's does. */
function readPolicyFlags(values: Record<string, string[] | undefined>): ToTeePolicyReturnType {
  const settings = Object.fromEntries(
    teePolicyKeys.map((key) => {
      const { flag } = configSources[key]
      const text = values[flag]?.join(',') ?? configDefaults[key]
      const parsed = ConfigSchema.shape[key].safeParse(text)
      if (!parsed.success) throw new Error(`--${flag} must be ${parsed.error.issues[0]?.message}, got ${JSON.stringify(text)}.`)
      return [key, parsed.data]
    }),
  ) as TeePolicySettings
  return toTeePolicy(settings)
}

async function readEvidence(path: string) {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (cause) {
    throw new TeeEvidenceFileError({ path, reason: `it could not be read (${(cause as Error).message})`, cause })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    throw new TeeEvidenceFileError({ path, reason: 'it is not JSON', cause })
  }
  const parsed = TeeEvidenceSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new TeeEvidenceFileError({ path, reason: `${issue?.path.join('.') || 'the body'}: ${issue?.message}`, cause: parsed.error })
  }
  return parsed.data
}

async function readRootCa(path: string): Promise<Uint8Array> {
  let text: string
  try {
    text = (await readFile(path, 'utf8')).trim().replace(/^0x/, '')
  } catch (cause) {
    throw new TeeEvidenceFileError({ path, reason: `the --root-ca file could not be read (${(cause as Error).message})`, cause })
  }
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(text)) throw new TeeEvidenceFileError({ path, reason: 'the --root-ca file is not DER as hex' })
  return Uint8Array.from(Buffer.from(text, 'hex'))
}

function formatVerdict(verdict: TeeVerdict): string {
  const width = Math.max(...verdict.checks.map((check) => check.name.length))
  const lines = verdict.checks.map((check) => `${check.status.padEnd(4)}  ${check.name.padEnd(width)}  ${check.reason}`)
  return `${lines.join('\n')}\n\nverdict: ${verdict.verdict} (checked at ${verdict.checkedAt}): ${verdict.summary}\n`
}
