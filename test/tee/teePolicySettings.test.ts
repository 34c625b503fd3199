import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { TeeEvidenceSchema, TeeVerdictSchema, type TeeEvidence, type TeeVerdict } from '../../contract/tee.ts'
import { plannedTeeRecords } from '../../devnet/seed/teePlan.ts'
import type { StartReferenceSellerReturnType } from '../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { writeDeploymentRecord } from '../../devnet/writeDeploymentRecord.ts'
import { spawnEntryPoint, type SpawnedEntryPoint } from '../rest/spawnEntryPoint.ts'
import { eventually } from '../support/eventually.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { startSeededSeller } from '../support/startSeededSeller.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'

// `npm run serve` (dist/app/serve.js) with the TEE policy settings, on a devnet of its own whose
// reference seller serves quotes of the devnet's root (TCB status UpToDate): the settings, by flag
// and by variable, decide the verdict of the service the seller serves.

const verifiedServiceId = String(plannedTeeRecords.find(({ expectedVerdict }) => expectedVerdict === 'verified')!.serviceIndex + 1)

let devnet: StartDevnetReturnType
let seller: StartReferenceSellerReturnType
let folder: string
let recordPath: string
const servers: SpawnedEntryPoint[] = []

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: true })
  seller = await startSeededSeller(devnet)
  folder = mkdtempSync(join(tmpdir(), 'tee-market-tee-policy-'))
  // The devnet's TEE root reaches a server only through a deployment record of its registry.
  recordPath = join(folder, 'deployment.json')
  writeDeploymentRecord(recordPath, devnet.deployment)
})

afterAll(async () => {
  for (const server of servers) expect(await server.stop()).toBe(0)
  await seller?.stop()
  await devnet?.stop()
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
})

/** `npm run serve` on the test's devnet with the given flags and variables; resolves with its first verdict of the served service. */
async function serveWith(argv: string[], env: Record<string, string> = {}): Promise<{ baseUrl: string; verdict: TeeVerdict }> {
  const port = await getFreePort()
  const server = spawnEntryPoint(['dist/app/serve.js', '--network', 'devnet', '--rpc-url', devnet.rpcUrl, '--deployment', recordPath, '--port', String(port), ...argv], { env })
  servers.push(server)
  await server.waitFor(/serving on http:\/\/127\.0\.0\.1:\d+/)
  const baseUrl = `http://127.0.0.1:${port}`
  let verdict: TeeVerdict | undefined
  await eventually(async () => {
    const response = await fetch(`${baseUrl}/v1/services/${verifiedServiceId}/tee`)
    expect(response.status).toBe(200)
    verdict = TeeVerdictSchema.parse(await response.json())
  })
  return { baseUrl, verdict: verdict! }
}

const checkOf = (verdict: TeeVerdict, name: string) => verdict.checks.find((check) => check.name === name)

let evidence: TeeEvidence

test('TEE_TCB_STATUSES without UpToDate: the UpToDate platform fails its tcb check, and the reason names the policy', async () => {
  const { baseUrl, verdict } = await serveWith([], { TEE_TCB_STATUSES: 'SWHardeningNeeded' })
  expect(verdict.verdict).toBe('failed')
  // What was refused is shown: the platform's own rating.
  expect(verdict.tcbStatus).toBe('UpToDate')
  expect(checkOf(verdict, 'tcb')).toMatchObject({ status: 'fail' })
  expect(checkOf(verdict, 'tcb')!.reason).toMatch(/UpToDate.*SWHardeningNeeded/)
  // Its evidence is served all the same: the next server's allow-lists are read from it.
  evidence = TeeEvidenceSchema.parse(await (await fetch(`${baseUrl}/v1/services/${verifiedServiceId}/tee/evidence`)).json())
})

test('--tee-compose-hashes and --tee-mrtds naming what the TD runs: verified, appraised', async () => {
  // The oracles read the evidence, not the verifier: MRTD at bytes 184–232 of a TDX quote.
  const mrTd = `0x${evidence.quote.slice(2 + 184 * 2, 2 + 232 * 2)}`
  const composeHash = `0x${createHash('sha256').update(evidence.appCompose!).digest('hex')}`
  const { verdict } = await serveWith(['--tee-compose-hashes', `0x${'11'.repeat(32)},${composeHash}`, '--tee-mrtds', mrTd])
  expect(verdict.verdict).toBe('verified')
  expect(checkOf(verdict, 'appraisal')).toEqual({ name: 'appraisal', status: 'pass', reason: 'compose hash and MRTD on the allow-list.' })
  expect(verdict.summary).toContain('on the allow-list')
  expect(verdict.measurements).toMatchObject({ mrTd, composeHash })
})

test('TEE_MRTDS not naming it: failed on the appraisal alone', async () => {
  const { verdict } = await serveWith([], { TEE_MRTDS: `0x${'ab'.repeat(48)}` })
  expect(verdict.verdict).toBe('failed')
  expect(verdict.checks.filter((check) => check.status === 'fail').map((check) => check.name)).toEqual(['appraisal'])
})

test('a setting out of its range: the server does not start, and says what is allowed', async () => {
  const server = spawnEntryPoint(['dist/app/serve.js', '--network', 'devnet', '--rpc-url', devnet.rpcUrl, '--deployment', recordPath, '--tee-allowed-advisories', 'SA-615'])
  expect(await new Promise((resolve) => server.child.once('exit', resolve))).not.toBe(0)
  expect(server.output()).toContain('--tee-allowed-advisories must be a comma-separated list of Intel advisory ids, e.g. INTEL-SA-00615 (empty for none), got "SA-615".')
})
