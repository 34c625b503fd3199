import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, encodeFunctionData, http } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { inferenceServingMockAbi } from '../../chain/abi/inferenceServingMock.ts'
import { TeeVerdictSchema } from '../../contract/tee.ts'
import { plannedServices } from '../../devnet/seed/marketPlan.ts'
import { seedProviderAddress } from '../../devnet/seed/seedAccounts.ts'
import { plannedTeeRecords } from '../../devnet/seed/teePlan.ts'
import { sendAsImpersonated } from '../../devnet/tee/sendAsImpersonated.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { writeDeploymentRecord } from '../../devnet/writeDeploymentRecord.ts'
import { spawnEntryPoint, type SpawnedEntryPoint } from '../rest/spawnEntryPoint.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'

// Hostile providers as `npm run serve` meets them: a 0G record whose URL redirects, one whose
// report never ends, one that never answers. Each service's verdict becomes `unreachable` with the
// reason, while the indexer answers its REST routes and probes as before: the checks are off the
// request path, each under its own deadline and byte cap.

let devnet: StartDevnetReturnType
let serve: SpawnedEntryPoint
let restUrl: string
let hostile: Server
const folder = mkdtempSync(join(tmpdir(), 'tee-market-hostile-provider-'))
const heldSockets = new Set<import('node:net').Socket>()

/** The seeded services without a 0G record, and the one whose record points at a closed port: each gets a record pointing at a hostile path. */
const unrecorded = [
  ...plannedServices.map((_, index) => index).filter((index) => !plannedTeeRecords.some(({ serviceIndex }) => serviceIndex === index)),
  plannedTeeRecords.find(({ expectedVerdict }) => expectedVerdict === 'unreachable')!.serviceIndex,
]
const paths = ['/redirect', '/huge', '/stall'] as const

function startHostile(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/redirect')) return response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end()
    if (request.url?.startsWith('/huge')) {
      response.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      const pour = () => {
        while (!response.writableEnded && response.write(chunk));
      }
      response.on('drain', pour)
      pour()
      return
    }
    heldSockets.add(request.socket)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: true })
  hostile = await startHostile()
  const base = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`
  const client = createPublicClient({ transport: http(devnet.rpcUrl) })
  const inferenceServing = devnet.deployment.tee!.inferenceServing
  for (const [slot, serviceIndex] of unrecorded.slice(0, paths.length).entries()) {
    const service = plannedServices[serviceIndex]!
    const hash = await sendAsImpersonated(client, {
      from: seedProviderAddress(service.providerIdentity),
      to: inferenceServing,
      data: encodeFunctionData({
        abi: inferenceServingMockAbi,
        functionName: 'addOrUpdateService',
        args: [{ serviceType: 'chatbot', url: `${base}${paths[slot]}`, model: service.modelId, verifiability: 'TeeML', inputPrice: 1n, outputPrice: 1n, additionalInfo: '{}', teeSignerAddress: '0x0000000000000000000000000000000000000000' }],
      }),
    })
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
  }
  const record = join(folder, 'deployment.json')
  writeDeploymentRecord(record, devnet.deployment)
  const port = await getFreePort()
  restUrl = `http://127.0.0.1:${port}`
  serve = spawnEntryPoint(['dist/app/serve.js', '--network', 'devnet', '--rpc-url', devnet.rpcUrl, '--deployment', record, '--port', String(port)])
  await serve.waitFor(/serving on http:\/\/127\.0\.0\.1:\d+/)
  // Ready: back-filled to the head (before, /healthz answers 503 by design).
  const deadline = Date.now() + 120_000
  while ((await fetch(`${restUrl}/readyz`)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`${restUrl} was not ready in 120 s`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
})

afterAll(async () => {
  for (const socket of heldSockets) socket.destroy()
  hostile?.close()
  expect(await serve?.stop()).toBe(0)
  await devnet?.stop()
  rmSync(folder, { recursive: true, force: true })
})

test('a redirect, an endless body and a stall each leave the verdict unreachable with its reason, and the indexer serving', async () => {
  const ids = unrecorded.slice(0, paths.length).map((index) => String(index + 1))
  const verdictOf = async (id: string) => {
    const answer = await fetch(`${restUrl}/v1/services/${id}/tee`)
    return answer.status === 200 ? TeeVerdictSchema.parse(await answer.json()) : undefined
  }
  // While the checks wait on the hostile provider, every probe and route answers.
  const probing = (async () => {
    const answered: number[] = []
    for (let round = 0; round < 20; round += 1) {
      for (const path of ['/healthz', '/v1/services', '/v1/jobs/1']) answered.push((await fetch(`${restUrl}${path}`)).status)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    return answered
  })()
  await expect.poll(async () => (await Promise.all(ids.map(verdictOf))).every((verdict) => verdict?.verdict === 'unreachable'), { timeout: 120_000 }).toBe(true)
  expect(new Set(await probing)).toEqual(new Set([200]))
  const verdicts = await Promise.all(ids.map(async (id) => (await verdictOf(id))!))
  const reasons = verdicts.map(({ checks }) => checks.find(({ name }) => name === 'quote')?.reason)
  expect(reasons[0]).toMatch(/answered a redirect \(302\).*Redirects are not followed/)
  expect(reasons[1]).toMatch(/sent more than \d+ bytes/)
  expect(reasons[2]).toMatch(/no full answer came within 10 s/)
})
