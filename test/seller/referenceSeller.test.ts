import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Account,
  type Chain,
  type Hash,
  type LocalAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
  createPublicClient,
  createTestClient,
  createWalletClient,
  hexToString,
  http,
  keccak256,
  parseEther,
  stringToHex,
} from 'viem'
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { parseAttestationText } from '../../chain/attestation/parseAttestationText.ts'
import { recoverAttestationSigner } from '../../chain/attestation/recoverAttestationSigner.ts'
import type { Deployment } from '../../devnet/deployment.ts'
import { createBuiltinBackend } from '../../devnet/seller/backends/createBuiltinBackend.ts'
import { signOutputRequest } from '../../devnet/seller/signOutputRequest.ts'
import {
  type StartReferenceSellerReturnType,
  startReferenceSeller,
} from '../../devnet/seller/startReferenceSeller.ts'
import type { SeedMarketReturnType } from '../../devnet/seedMarket.ts'
import { seededSellerServices } from '../../devnet/seller/seededSellerServices.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'

const mnemonic = 'test test test test test test test test test test test junk'
const seller = mnemonicToAccount(mnemonic, { addressIndex: 11 })
const buyer = mnemonicToAccount(mnemonic, { addressIndex: 12 })
const stranger = mnemonicToAccount(mnemonic, { addressIndex: 13 })
const firstSigningKey = generatePrivateKey()
const firstSigner = privateKeyToAccount(firstSigningKey)

type Wallet = WalletClient<Transport, Chain, Account>

let stopNode: () => Promise<void>
let rpcUrl: string
let publicClient: PublicClient
let deployment: Deployment
let seedSummary: SeedMarketReturnType
let serviceId: bigint
let referenceSeller: StartReferenceSellerReturnType | undefined
const stateDir = mkdtempSync(join(tmpdir(), 'reference-seller-'))
const stateFile = join(stateDir, 'seller-state.json')

const walletOf = (account: Account): Wallet => createWalletClient({ account, chain: hardhat, transport: http(rpcUrl) })

async function send(hash: Promise<Hash>): Promise<void> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash })
  expect(receipt.status).toBe('success')
}

async function createJob(prompt: string, { timeout = 3_600n } = {}): Promise<bigint> {
  const jobId = await publicClient.readContract({ address: deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' })
  await send(
    walletOf(buyer).writeContract({
      address: deployment.escrow,
      abi: escrowAbi,
      functionName: 'createJob',
      args: [serviceId, stringToHex(prompt), timeout],
      value: parseEther('0.001'),
    }),
  )
  return jobId
}

async function readJob(jobId: bigint) {
  return publicClient.readContract({ address: deployment.escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })
}

/** Polls the chain until the job leaves Pending; the test's own timeout bounds the wait. */
async function waitForSettled(jobId: bigint) {
  for (;;) {
    const job = await readJob(jobId)
    if (job.state !== 0) return job
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function fetchOutput(url: string, jobId: bigint | string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/outputs/${jobId}`, { headers })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function asBuyer(jobId: bigint, account: LocalAccount = buyer) {
  return { 'x-buyer-signature': await signOutputRequest(account, { jobId }) }
}

function startSeller(options: { stateFile?: string } = {}): Promise<StartReferenceSellerReturnType> {
  return startReferenceSeller({
    rpcUrl,
    deployment,
    services: [{ serviceId, sellerKey: seller, signingKey: firstSigningKey }],
    port: 0,
    pollingIntervalMs: 100,
    ...options,
  })
}

beforeAll(async () => {
  const devnet = await startTestDevnet({ seed: true })
  stopNode = devnet.stop
  rpcUrl = devnet.rpcUrl
  deployment = devnet.deployment
  seedSummary = devnet.seedSummary!
  publicClient = createPublicClient({ chain: hardhat, transport: http(rpcUrl), pollingInterval: 50 })
  serviceId = await publicClient.readContract({ address: deployment.registry, abi: registryAbi, functionName: 'nextServiceId' })
  await send(
    walletOf(seller).writeContract({
      address: deployment.registry,
      abi: registryAbi,
      functionName: 'registerService',
      args: [
        keccak256(stringToHex('capability: chat')),
        'reference-model-1',
        stranger.address,
        firstSigner.address,
        'reference-provider',
        'centralized',
        true,
        parseEther('0.001'),
        4_096n,
        stringToHex('ipfs://reference'),
      ],
    }),
  )
})

afterAll(async () => {
  await referenceSeller?.stop()
  await stopNode?.()
  rmSync(stateDir, { recursive: true, force: true })
})

test('default', async () => {
  referenceSeller = await startSeller({ stateFile })
  const prompt = 'Explain escrow in one sentence. Then stop.'
  const jobId = await createJob(prompt)

  const job = await waitForSettled(jobId)
  expect(job.state).toBe(3)

  const { signer, error } = recoverAttestationSigner({ text: job.attestationText, signature: job.attestationSignature })
  expect(error).toBeNull()
  expect(signer).toBe(firstSigner.address)

  const { status, body } = await fetchOutput(referenceSeller.url, jobId, await asBuyer(jobId))
  expect(status).toBe(200)
  const expected = await createBuiltinBackend().answer({ jobId, serviceId, modelId: 'reference-model-1', prompt })
  expect(body).toEqual({ jobId: jobId.toString(), output: expected.output, outputRootHash: job.outputRootHash })
  expect(keccak256(stringToHex(expected.output))).toBe(job.outputRootHash)
  expect(expected.output).toBe(
    [
      'Reference seller answer (model reference-model-1).',
      'Your prompt has 7 words in 42 UTF-8 bytes.',
      `Its keccak256 is ${keccak256(stringToHex(prompt))}.`,
      'Its first sentence reversed: ".ecnetnes eno ni worcse nialpxE"',
    ].join('\n'),
  )

  const fields = parseAttestationText(job.attestationText)
  expect(fields).toMatchObject({
    contentHash: job.outputRootHash.slice(2),
    providerType: 'centralized',
    providerIdentity: 'reference-provider',
  })
  expect(hexToString(job.attestationText).split(':')).toHaveLength(5)
})

describe('output endpoint', () => {
  test('asks for the buyer signature, then checks it is the buyer', async () => {
    const url = referenceSeller!.url
    const jobId = await createJob('Who may read this?')
    await waitForSettled(jobId)

    const missing = await fetchOutput(url, jobId)
    expect(missing.status).toBe(401)
    expect(missing.body).toMatchObject({ error: { code: 'buyer_signature_required' } })

    const malformed = await fetchOutput(url, jobId, { 'x-buyer-signature': '0x1234' })
    expect(malformed.status).toBe(401)

    const wrongMessage = await fetchOutput(url, jobId, await asBuyer(jobId + 1000n))
    expect(wrongMessage.status).toBe(403)

    const other = await fetchOutput(url, jobId, await asBuyer(jobId, stranger))
    expect(other.status).toBe(403)
    expect(other.body).toMatchObject({ error: { code: 'not_buyer' } })

    const own = await fetchOutput(url, jobId, await asBuyer(jobId))
    expect(own.status).toBe(200)
  })

  test('404 for a job it holds no settled output for', async () => {
    const unknown = await fetchOutput(referenceSeller!.url, 999_999n, await asBuyer(999_999n))
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ error: { code: 'output_not_found' } })
  })

  test.each(['abc', '01', '-1', '0x1', '1.0'])('400 for job id %s', async (jobId) => {
    const answer = await fetchOutput(referenceSeller!.url, jobId)
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ error: { code: 'invalid_job_id' } })
  })
})

describe('restart', () => {
  test('answers the jobs created while it was down, and still serves earlier outputs', async () => {
    const earlier = await createJob('Settled before the restart.')
    await waitForSettled(earlier)
    await referenceSeller!.stop()
    referenceSeller = undefined

    const missed = [await createJob('Created while the seller was down.'), await createJob('Also missed.')]
    expect((await readJob(missed[0]!)).state).toBe(0)

    referenceSeller = await startSeller({ stateFile })
    for (const jobId of missed) expect((await waitForSettled(jobId)).state).toBe(3)

    const served = await fetchOutput(referenceSeller.url, earlier, await asBuyer(earlier))
    expect(served.status).toBe(200)
    expect(served.body.outputRootHash).toBe((await readJob(earlier)).outputRootHash)
  })

  test('without a state file it rescans from the deployment block', async () => {
    await referenceSeller!.stop()
    const missed = await createJob('Found by a full rescan.')
    referenceSeller = await startSeller()
    expect((await waitForSettled(missed)).state).toBe(3)
  })

  test('leaves a job that expired while it was down Pending', async () => {
    await referenceSeller!.stop()
    const expiring = await createJob('Too late.', { timeout: 60n })
    const testClient = createTestClient({ mode: 'hardhat', chain: hardhat, transport: http(rpcUrl) })
    await testClient.increaseTime({ seconds: 120 })
    await testClient.mine({ blocks: 1 })
    referenceSeller = await startSeller()
    // Jobs are taken in id order, so once a later job settles the expired one was looked at.
    const later = await createJob('On time.')
    await waitForSettled(later)
    expect((await readJob(expiring)).state).toBe(0)
  })
})

describe('key rotation', () => {
  test('signs with the new key once it holds it', async () => {
    const nextSigningKey = generatePrivateKey()
    const nextSigner = privateKeyToAccount(nextSigningKey)
    await send(
      walletOf(seller).writeContract({
        address: deployment.registry,
        abi: registryAbi,
        functionName: 'rotateSigningAddress',
        args: [serviceId, nextSigner.address],
      }),
    )
    const jobId = await createJob('Signed after the rotation.')
    referenceSeller!.addSigningKey({ serviceId, signingKey: nextSigningKey })

    const job = await waitForSettled(jobId)
    expect(job.state).toBe(3)
    expect(recoverAttestationSigner({ text: job.attestationText, signature: job.attestationSignature }).signer).toBe(
      nextSigner.address,
    )
  })
})

test('answers the seeded Pending jobs of seller #1 only', async () => {
  const seededSeller = await startReferenceSeller({
    rpcUrl,
    deployment,
    services: seededSellerServices(),
    port: 0,
    pollingIntervalMs: 100,
  })
  try {
    expect(seedSummary.pendingForReferenceSeller.length).toBeGreaterThan(0)
    for (const jobId of seedSummary.pendingForReferenceSeller) {
      const job = await waitForSettled(jobId)
      expect(job.state).toBe(3)
      const service = await publicClient.readContract({
        address: deployment.registry,
        abi: registryAbi,
        functionName: 'getService',
        args: [job.serviceId],
      })
      expect(recoverAttestationSigner({ text: job.attestationText, signature: job.attestationSignature }).signer).toBe(
        service.signingAddress,
      )
    }
    for (const jobId of seedSummary.pendingElsewhere) expect((await readJob(jobId)).state).toBe(0)
  } finally {
    await seededSeller.stop()
  }
})
