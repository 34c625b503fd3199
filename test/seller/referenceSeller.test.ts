import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Hash, createTestClient, hexToString, http, keccak256, stringToHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { parseAttestationText } from '../../chain/attestation/parseAttestationText.ts'
import { recoverAttestationSigner } from '../../chain/attestation/recoverAttestationSigner.ts'
import { createBuiltinBackend } from '../../devnet/seller/backends/createBuiltinBackend.ts'
import { JobInputUnreadableError } from '../../errors/seller.ts'
import { signOutputRequest } from '../../mcp/run/signOutputRequest.ts'
import { readJobInput } from '../../devnet/seller/readJobInput.ts'
import { seededSellerServices } from '../../devnet/seller/seededSellerServices.ts'
import {
  type StartReferenceSellerReturnType,
  startReferenceSeller,
} from '../../devnet/seller/startReferenceSeller.ts'
import { type SellerFixture, startSellerFixture, testAccount } from './sellerFixture.ts'

const seller = testAccount(11)
const buyer = testAccount(12)
const stranger = testAccount(13)
const firstSigningKey = generatePrivateKey()
const firstSigner = privateKeyToAccount(firstSigningKey)

let fixture: SellerFixture
let serviceId: bigint
let referenceSeller: StartReferenceSellerReturnType | undefined
const stateDir = mkdtempSync(join(tmpdir(), 'reference-seller-'))
const stateFile = join(stateDir, 'seller-state.json')

const createJob = (prompt: string, { timeout }: { timeout?: bigint } = {}): Promise<bigint> =>
  fixture.createJob({ buyer, serviceId, prompt, timeout })

function startSeller(options: { stateFile?: string } = {}): Promise<StartReferenceSellerReturnType> {
  return startReferenceSeller({
    rpcUrl: fixture.rpcUrl,
    deployment: fixture.deployment,
    services: [{ serviceId, sellerKey: seller, signingKey: firstSigningKey }],
    port: 0,
    pollingIntervalMs: 100,
    ...options,
  })
}

async function restartSeller(options: { stateFile?: string } = {}): Promise<void> {
  await referenceSeller?.stop()
  referenceSeller = await startSeller(options)
}

beforeAll(async () => {
  // Seeded, so the seed's Pending jobs can be checked; the other tests use a service of their own.
  fixture = await startSellerFixture({ seed: true })
  serviceId = await fixture.registerService({ seller, signingAddress: firstSigner.address })
})

afterAll(async () => {
  await referenceSeller?.stop()
  await fixture?.stop()
  rmSync(stateDir, { recursive: true, force: true })
})

test('default', async () => {
  referenceSeller = await startSeller({ stateFile })
  const prompt = 'Explain escrow in one sentence. Then stop.'
  const jobId = await createJob(prompt)

  const job = await fixture.waitForSettled(jobId)
  expect(job.state).toBe(3)
  const { signer, error } = recoverAttestationSigner({ text: job.attestationText, signature: job.attestationSignature })
  expect(error).toBeNull()
  expect(signer).toBe(firstSigner.address)

  const { status, body } = await fixture.fetchOutput(referenceSeller.url, jobId, buyer)
  expect(status).toBe(200)
  const expected = [
    'Reference seller answer (model reference-model-1).',
    'Your prompt has 7 words in 42 UTF-8 bytes.',
    `Its keccak256 is ${keccak256(stringToHex(prompt))}.`,
    'Its first sentence reversed: ".ecnetnes eno ni worcse nialpxE"',
  ].join('\n')
  expect(body).toEqual({ jobId: jobId.toString(), output: expected, outputRootHash: job.outputRootHash })
  expect(keccak256(stringToHex(expected))).toBe(job.outputRootHash)

  expect(parseAttestationText(job.attestationText)).toMatchObject({
    contentHash: job.outputRootHash.slice(2),
    usageHash: keccak256(
      stringToHex(JSON.stringify({ jobId: jobId.toString(), model: 'reference-model-1', promptTokens: 7, completionTokens: 27 })),
    ).slice(2),
    providerType: 'centralized',
    providerIdentity: 'reference-provider',
  })
})

test('the builtin backend is deterministic', async () => {
  const backend = createBuiltinBackend()
  const request = { jobId: 1n, serviceId: 1n, modelId: 'm', prompt: 'Same prompt, same answer!' }
  expect(await backend.answer(request)).toEqual(await backend.answer({ ...request, jobId: 2n }))
})

describe('output endpoint', () => {
  test('asks for the buyer signature, then checks it is the buyer', async () => {
    const url = referenceSeller!.url
    const jobId = await createJob('Who may read this?')
    await fixture.waitForSettled(jobId)

    const missing = await fixture.fetchOutput(url, jobId)
    expect(missing.status).toBe(401)
    expect(missing.body).toMatchObject({ error: { code: 'buyer_signature_required' } })

    const malformed = await fetch(`${url}/outputs/${jobId}`, {
      headers: { 'x-buyer-signature': '0x1234', 'x-buyer-signature-expires': String(Math.floor(Date.now() / 1_000) + 60) },
    })
    expect(malformed.status).toBe(401)

    const otherJob = await fixture.fetchOutput(url, jobId, buyer, { jobId: jobId + 1_000n })
    expect(otherJob.status).toBe(404)

    expect((await fixture.fetchOutput(url, jobId, buyer)).status).toBe(200)
  })

  test("a stranger learns nothing: the same answer for another's job as for a job not held", async () => {
    const url = referenceSeller!.url
    const jobId = await createJob('Whose is this?')
    await fixture.waitForSettled(jobId)
    const notYours = await fixture.fetchOutput(url, jobId, stranger)
    const unknownId = 999_999n
    const unknown = await fixture.fetchOutput(url, unknownId, stranger)
    expect(notYours.status).toBe(404)
    expect(unknown.status).toBe(404)
    expect(JSON.stringify(notYours.body).replaceAll(String(jobId), '<id>')).toBe(JSON.stringify(unknown.body).replaceAll(String(unknownId), '<id>'))
  })

  test('a signature cannot be replayed: not at another seller, chain or escrow, not once expired', async () => {
    const url = referenceSeller!.url
    const jobId = await createJob('Sign me once.')
    await fixture.waitForSettled(jobId)
    const now = Math.floor(Date.now() / 1_000)
    expect((await fixture.fetchOutput(url, jobId, buyer, { seller: stranger.address })).status).toBe(404)
    expect((await fixture.fetchOutput(url, jobId, buyer, { chainId: 1 })).status).toBe(404)
    expect((await fixture.fetchOutput(url, jobId, buyer, { escrow: fixture.deployment.registry })).status).toBe(404)
    const expired = await fixture.fetchOutput(url, jobId, buyer, { expires: now - 1 })
    expect(expired.status).toBe(401)
    expect(String((expired.body.error as { message: string }).message)).toContain('has expired')
    const forever = await fixture.fetchOutput(url, jobId, buyer, { expires: now + 365 * 24 * 3_600 })
    expect(forever.status).toBe(401)
    expect(String((forever.body.error as { message: string }).message)).toContain('must expire within 300 s')
    const { seller: jobSeller } = await fixture.readJob(jobId)
    const signed = await signOutputRequest(buyer, { jobId, seller: jobSeller, chainId: 31337, escrow: fixture.deployment.escrow, expires: now + 60 })
    expect((await fetch(`${url}/outputs/${jobId}`, { headers: signed })).status).toBe(200)
    // The same signature with its expiry pushed later no longer matches what was signed.
    const stretched = { ...signed, 'x-buyer-signature-expires': String(now + 120) }
    expect((await fetch(`${url}/outputs/${jobId}`, { headers: stretched })).status).toBe(404)
  })

  test('404 until the job is settled by this seller', async () => {
    const unknown = await fixture.fetchOutput(referenceSeller!.url, 999_999n, buyer)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ error: { code: 'output_not_found' } })

    // Settled by the seed, not by this seller: nothing to serve.
    const seededJob = 1n
    expect((await fixture.readJob(seededJob)).state).not.toBe(0)
    expect((await fixture.fetchOutput(referenceSeller!.url, seededJob, buyer)).status).toBe(404)
  })

  test.each(['abc', '01', '-1', '0x1', '1.0', '1'.repeat(79)])('400 for job id %s', async (jobId) => {
    const answer = await fixture.fetchOutput(referenceSeller!.url, jobId)
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ error: { code: 'invalid_job_id' } })
  })
})

describe('restart', () => {
  test('answers the jobs created while it was down and still serves earlier outputs', async () => {
    const earlier = await createJob('Settled before the restart.')
    await fixture.waitForSettled(earlier)
    await referenceSeller!.stop()
    referenceSeller = undefined

    const missed = [await createJob('Created while the seller was down.'), await createJob('Also missed.')]
    expect((await fixture.readJob(missed[0]!)).state).toBe(0)

    referenceSeller = await startSeller({ stateFile })
    for (const jobId of missed) expect((await fixture.waitForSettled(jobId)).state).toBe(3)

    const served = await fixture.fetchOutput(referenceSeller.url, earlier, buyer)
    expect(served.status).toBe(200)
    expect(served.body.outputRootHash).toBe((await fixture.readJob(earlier)).outputRootHash)
  })

  test('without a state file it rescans from the deployment block', async () => {
    await referenceSeller!.stop()
    referenceSeller = undefined
    const missed = await createJob('Found by a full rescan.')
    referenceSeller = await startSeller()
    expect((await fixture.waitForSettled(missed)).state).toBe(3)
  })

  test('leaves a job that expired while it was down Pending', async () => {
    await referenceSeller!.stop()
    referenceSeller = undefined
    const expiring = await createJob('Too late.', { timeout: 60n })
    const testClient = createTestClient({ mode: 'hardhat', chain: hardhat, transport: http(fixture.rpcUrl) })
    await testClient.increaseTime({ seconds: 120 })
    await testClient.mine({ blocks: 1 })

    await restartSeller()
    // Jobs are taken in id order, so once a later job settles the expired one was looked at.
    const later = await createJob('On time.')
    await fixture.waitForSettled(later)
    expect((await fixture.readJob(expiring)).state).toBe(0)
  })
})

test('after a key rotation it signs with the new key once it holds it', async () => {
  const nextSigningKey = generatePrivateKey()
  const nextSigner = privateKeyToAccount(nextSigningKey)
  await fixture.rotateSigningAddress({ seller, serviceId, signingAddress: nextSigner.address })
  const jobId = await createJob('Signed after the rotation.')
  referenceSeller!.addSigningKey({ serviceId, signingKey: nextSigningKey })

  const job = await fixture.waitForSettled(jobId)
  expect(job.state).toBe(3)
  expect(recoverAttestationSigner({ text: job.attestationText, signature: job.attestationSignature }).signer).toBe(
    nextSigner.address,
  )
})

test('answers the seeded Pending jobs of seller #1 and leaves the others Pending', async () => {
  const { deployment, publicClient, seedSummary } = fixture
  const seededSeller = await startReferenceSeller({
    rpcUrl: fixture.rpcUrl,
    deployment,
    services: seededSellerServices(),
    port: 0,
    pollingIntervalMs: 100,
  })
  try {
    expect(seedSummary!.pendingForReferenceSeller.length).toBeGreaterThan(0)
    for (const jobId of seedSummary!.pendingForReferenceSeller) {
      const job = await fixture.waitForSettled(jobId)
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
    for (const jobId of seedSummary!.pendingElsewhere) expect((await fixture.readJob(jobId)).state).toBe(0)
  } finally {
    await seededSeller.stop()
  }
})

describe('readJobInput', () => {
  const createdIn = async (jobId: bigint) => {
    const [log] = await fixture.publicClient.getContractEvents({
      address: fixture.deployment.escrow,
      abi: escrowAbi,
      eventName: 'JobCreated',
      args: { jobId },
      fromBlock: BigInt(fixture.deployment.deployBlock),
      strict: true,
    })
    return log!
  }

  test('reads the prompt bytes of the createJob calldata', async () => {
    const jobId = await createJob('Read me from calldata: ünïcödé.')
    const log = await createdIn(jobId)
    const input = await readJobInput(fixture.publicClient, {
      escrow: fixture.deployment.escrow,
      jobId,
      transactionHash: log.transactionHash,
      inputCommitment: log.args.inputCommitment,
    })
    expect(hexToString(input)).toBe('Read me from calldata: ünïcödé.')
  })

  test('refuses calldata that does not match the commitment, or a transaction that is not createJob', async () => {
    const first = await createdIn(await createJob('First prompt.'))
    const second = await createdIn(await createJob('Second prompt.'))
    const read = (transactionHash: Hash) =>
      readJobInput(fixture.publicClient, {
        escrow: fixture.deployment.escrow,
        jobId: second.args.jobId,
        transactionHash,
        inputCommitment: second.args.inputCommitment,
      })
    await expect(read(first.transactionHash)).rejects.toThrow(JobInputUnreadableError)
    await expect(read(first.transactionHash)).rejects.toThrow(/does not match the inputCommitment/)

    const [registration] = await fixture.publicClient.getContractEvents({
      address: fixture.deployment.registry,
      abi: registryAbi,
      eventName: 'ServiceRegistered',
      fromBlock: BigInt(fixture.deployment.deployBlock),
    })
    await expect(read(registration!.transactionHash)).rejects.toThrow(/is not a call to the escrow/)
  })
})
