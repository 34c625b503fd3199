import { performance } from 'node:perf_hooks'
import { checkTeeEvidence } from '../tee/checkTeeEvidence.ts'
import { fetchCollateral } from '../tee/fetchCollateral.ts'
import { parseAttestationReport } from '../tee/parseAttestationReport.ts'
import { readCollateralKey } from '../tee/readCollateralKey.ts'
import { gpuNotChecked, readCollateral, readQuote, pinnedClock } from '../test/tee/support/fixtures.ts'
import { startPcsServer } from '../test/tee/support/startPcsServer.ts'
import { percentile } from './percentile.ts'

export type TeeBenchResult = { what: string; calls: number; medianUs: number; p95Us: number }

export type MeasureTeeParameters = { verifications?: number; fetches?: number }

async function time(calls: number, run: () => unknown): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < calls; i++) {
    const started = performance.now()
    await run()
    samples.push((performance.now() - started) * 1_000)
  }
  return samples
}

const summarise = (what: string, unsorted: number[], samples = [...unsorted].sort((a, b) => a - b)): TeeBenchResult => ({
  what,
  calls: samples.length,
  medianUs: Math.round(percentile(samples, 50)),
  p95Us: Math.round(percentile(samples, 95)),
})

/**
 * One verification (`checkTeeEvidence` on Intel's real sample TDX quote and collateral, at the
 * fixtures' pinned clock) and one collateral fetch (`fetchCollateral`: four requests to a PCS on
 * loopback serving Intel's bytes), in µs per call. No devnet: a few seconds.
 */
export async function measureTee({ verifications = 200, fetches = 50 }: MeasureTeeParameters = {}): Promise<TeeBenchResult[]> {
  const quote = readQuote('tdx_quote')
  const collateral = readCollateral('tdx_quote')
  const report = parseAttestationReport({ quote: Buffer.from(quote).toString('hex') })
  const check = () => checkTeeEvidence({ gpu: gpuNotChecked, report, collateral, now: pinnedClock, signingAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
  await time(10, check)
  const verify = await time(verifications, check)
  const pcs = await startPcsServer(collateral, { fmspc: 'B0C06F000000' })
  try {
    const key = readCollateralKey(quote)
    await time(5, () => fetchCollateral({ ...key, pcsUrl: pcs.url }))
    const fetch = await time(fetches, () => fetchCollateral({ ...key, pcsUrl: pcs.url }))
    return [summarise('checkTeeEvidence (real TDX sample)', verify), summarise('fetchCollateral (local PCS, 4 requests)', fetch)]
  } finally {
    await pcs.close()
  }
}

export function printTeeTable(results: readonly TeeBenchResult[]): string {
  const rows = results.map((r) => `| ${r.what} | ${r.calls} | ${r.medianUs.toLocaleString('en-US')} | ${r.p95Us.toLocaleString('en-US')} |`)
  return ['| measured | calls | median µs | p95 µs |', '|---|---|---|---|', ...rows].join('\n')
}
