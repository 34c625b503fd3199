import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { recoverAttestationSigner } from '../../chain/attestation/recoverAttestationSigner.ts'
import { startReferenceSeller } from '../../devnet/seller/startReferenceSeller.ts'
import { type FaultProxy, startFaultProxy } from '../support/faultProxy.ts'
import { startStallingProxy } from '../support/startStallingProxy.ts'
import { type SellerFixture, startSellerFixture, testAccount } from './sellerFixture.ts'

const seller = testAccount(16)
const buyer = testAccount(17)
const signingKey = generatePrivateKey()

let fixture: SellerFixture
let proxy: FaultProxy

beforeAll(async () => {
  fixture = await startSellerFixture()
  // Drops, 429s, 500s and slow answers on a fifth of the requests, and no log range over 3 blocks.
  proxy = await startFaultProxy({ target: fixture.rpcUrl, faultRate: 0.2, maxLogRange: 3n, delayMs: 300, seed: 7 })
})

afterAll(async () => {
  await proxy?.stop()
  await fixture?.stop()
})

/** The reference seller of one service, reading the chain through `rpcUrl`, polling every 100 ms. */
function startSellerThrough(rpcUrl: string, { serviceId, sellerKey }: { serviceId: bigint; sellerKey: typeof seller }) {
  return startReferenceSeller({ rpcUrl, deployment: fixture.deployment, services: [{ serviceId, sellerKey, signingKey }], port: 0, pollingIntervalMs: 100 })
}

test('settles every job through a faulty node, none skipped', async () => {
  const serviceId = await fixture.registerService({ seller, signingAddress: privateKeyToAccount(signingKey).address })
  // Jobs created before the seller starts make it back-fill over many blocks, in narrow windows.
  const jobIds: bigint[] = []
  for (let index = 0; index < 4; index++) {
    jobIds.push(await fixture.createJob({ buyer, serviceId, prompt: `Faulty node, job ${index}.` }))
  }
  const referenceSeller = await startSellerThrough(proxy.url, { serviceId, sellerKey: seller })
  try {
    for (let index = 4; index < 8; index++) {
      jobIds.push(await fixture.createJob({ buyer, serviceId, prompt: `Faulty node, job ${index}.` }))
    }
    for (const jobId of jobIds) {
      const job = await fixture.waitForSettled(jobId)
      expect(job.state).toBe(3)
      expect(recoverAttestationSigner({ text: job.attestationText, signature: job.attestationSignature }).signer).toBe(
        privateKeyToAccount(signingKey).address,
      )
      const served = await fixture.fetchOutput(referenceSeller.url, jobId, buyer)
      expect(served.status).toBe(200)
      expect(served.body.outputRootHash).toBe(job.outputRootHash)
    }
    expect(proxy.counts.rangeTooLarge).toBeGreaterThan(0)
    expect(proxy.counts.drop + proxy.counts.status429 + proxy.counts.status500 + proxy.counts.delay).toBeGreaterThan(0)
  } finally {
    await referenceSeller.stop()
  }
})

test('a node that stalls an answer after its headers: the call ends at its deadline, and the job is still settled', async () => {
  const stallSeller = testAccount(18)
  const serviceId = await fixture.registerService({ seller: stallSeller, signingAddress: privateKeyToAccount(signingKey).address })
  const stalling = await startStallingProxy({ target: fixture.rpcUrl })
  const referenceSeller = await startSellerThrough(stalling.url, { serviceId, sellerKey: stallSeller })
  try {
    stalling.stall({ kind: 'halfBody', answers: 1 })
    const jobId = await fixture.createJob({ buyer, serviceId, prompt: 'Stalled node.' })
    const job = await fixture.waitForSettled(jobId)
    expect(job.state).toBe(3)
    expect(stalling.stalled().answers).toBe(1)
  } finally {
    await referenceSeller.stop()
    await stalling.stop()
  }
})
