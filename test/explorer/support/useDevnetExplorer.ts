import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import { type Deployment, DeploymentSchema } from '../../../config/deployment.ts'
import { type TeeVerdictName, TeeVerdictListSchema } from '../../../contract/tee.ts'
import { spawnEntryPoint, type SpawnedEntryPoint } from '../../rest/spawnEntryPoint.ts'
import { getFreePort } from '../../support/getFreePort.ts'
import { launchBrowser, type LaunchedBrowser } from './launchBrowser.ts'

/** One line of what `npm start` prints under "TEE verdicts …": the seed's plan for a service. */
export type PrintedTeeVerdict = { serviceId: string; verdict: TeeVerdictName; why: string }

export type DevnetExplorerFixture = {
  /** The explorer's URL as `npm start` printed it first, without its trailing slash. */
  baseUrl: string
  /** The devnet's node, and the deployment record `npm start` wrote (its 0G mock among it). */
  rpcUrl: string
  deployment: Deployment
  /** The verdict `npm start` printed for every seeded service (devnet/seed/teePlan.ts), in service order. */
  plan: PrintedTeeVerdict[]
  browser: LaunchedBrowser
}

/**
 * `npm start` as a user runs it (devnet/start.ts in a process of its own, on free ports): the
 * devnet with its TEE root and PCCS, the real indexer checking every seeded service, and the
 * reference seller serving its quotes. Resolves once the indexer has a verdict for every service
 * the start printed, then launches Chromium. Read the fields inside tests.
 */
export function useDevnetExplorer(): DevnetExplorerFixture {
  const fixture = {} as DevnetExplorerFixture
  const folder = mkdtempSync(join(tmpdir(), 'tee-market-explorer-tee-'))
  let start: SpawnedEntryPoint | undefined
  beforeAll(async () => {
    const [rpc, pccs, rest, mcp, seller] = [await getFreePort(), await getFreePort(), await getFreePort(), await getFreePort(), await getFreePort()]
    start = spawnEntryPoint([
      '--import', 'tsx', 'devnet/start.ts',
      '--rpc-port', String(rpc),
      '--pccs-port', String(pccs),
      '--port', String(rest),
      '--mcp-port', String(mcp),
      '--seller-port', String(seller),
      '--deployment', join(folder, 'deployment.json'),
    ])
    await start.waitFor(/Press Ctrl\+C to stop\./, 300_000)
    const output = start.output()
    fixture.rpcUrl = `http://127.0.0.1:${rpc}`
    fixture.deployment = DeploymentSchema.parse(JSON.parse(readFileSync(join(folder, 'deployment.json'), 'utf8')))
    fixture.baseUrl = /https?:\/\/\S+/.exec(output)![0].replace(/\/$/, '')
    const printed = output.slice(output.indexOf('TEE verdicts'))
    fixture.plan = [...printed.matchAll(/^ {2}service (\d+) +(\w+): (.+)$/gm)].map(([, serviceId, verdict, why]) => ({ serviceId: serviceId!, verdict: verdict as TeeVerdictName, why: why! }))
    // The indexer checks the services in the background, a few at a time, once it caught up.
    const readCount = async () => TeeVerdictListSchema.parse(await (await fetch(`${fixture.baseUrl}/v1/services/tee`)).json()).count
    for (const deadline = Date.now() + 120_000; (await readCount()) < fixture.plan.length; ) {
      if (Date.now() > deadline) throw new Error(`The indexer did not check the ${fixture.plan.length} seeded services within 120 s.`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    fixture.browser = await launchBrowser()
  })
  afterAll(async () => {
    await fixture.browser?.close()
    expect(await start?.stop()).toBe(0)
    rmSync(folder, { recursive: true, force: true })
  })
  return fixture
}
