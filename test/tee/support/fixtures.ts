import { readFileSync } from 'node:fs'
import type { Collateral } from '@phala/dcap-qvl'

const folder = new URL('../fixtures/', import.meta.url)

export const readQuote = (name: string) => new Uint8Array(readFileSync(new URL(name, folder)))
export const readCollateral = (name: string): Collateral => JSON.parse(readFileSync(new URL(`${name}_collateral.json`, folder), 'utf8'))
export const readJson = (name: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(name, folder), 'utf8'))

/** Inside every validity window of the 2025-06-19 collateral (see fixtures/README.md). */
export const pinnedClock = new Date('2025-07-01T00:00:00Z')
/** The `gpu` outcome for checks of a quote alone: `checkGpuEvidence` is tested in gpuEvidence.test.ts. */
export const gpuNotChecked = { status: 'skip', reason: 'GPU evidence is not part of this check.' } as const
/** Inside the 2026-02-18 collateral of `tdx_quote_outdated`. */
export const outdatedClock = new Date('2026-03-01T00:00:00Z')

/**
 * Offsets in a TDX quote, from Intel's TDX DCAP quote layout (header 48 bytes, then the TD
 * report: TEE_TCB_SVN 16, MRSEAM 48, MRSIGNERSEAM 48, SEAMATTRIBUTES 8, TDATTRIBUTES 8, XFAM 8,
 * MRTD 48, MRCONFIGID 48, MROWNER 48, MROWNERCONFIG 48, RTMR0–3 48 each, REPORTDATA 64), written
 * out here so that the tests do not read the quote with the code they check.
 */
export const tdOffsets = {
  tdAttributes: 48 + 16 + 48 + 48 + 8,
  mrTd: 48 + 16 + 48 + 48 + 8 + 8 + 8,
  mrConfigId: 48 + 16 + 48 + 48 + 8 + 8 + 8 + 48,
  rtmr3: 48 + 16 + 48 + 48 + 8 + 8 + 8 + 48 * 7,
  reportData: 48 + 16 + 48 + 48 + 8 + 8 + 8 + 48 * 8,
}

export const slice = (bytes: Uint8Array, at: number, length: number) => `0x${Buffer.from(bytes.subarray(at, at + length)).toString('hex')}`
