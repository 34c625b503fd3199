import { type IncomingHttpHeaders, type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { keccak256, stringToHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { parseAttestationText } from '../../chain/attestation/parseAttestationText.ts'
import { recoverAttestationSigner } from '../../chain/attestation/recoverAttestationSigner.ts'
import { SellerBackendError } from '../../errors/seller.ts'
import { createOpenAiBackend } from '../../devnet/seller/backends/createOpenAiBackend.ts'
import { startReferenceSeller } from '../../devnet/seller/startReferenceSeller.ts'
import { startSellerFixture, testAccount } from './sellerFixture.ts'

type SeenRequest = { method: string; url: string; headers: IncomingHttpHeaders; body: unknown }
type FakeReply = { status: number; body: string }

/** A stand-in for a remote OpenAI-compatible endpoint, on a real socket. */
let fake: { url: string; server: Server; seen: SeenRequest[]; reply: (request: SeenRequest) => FakeReply }

const completion = (content: string, usage = { prompt_tokens: 11, completion_tokens: 5 }): FakeReply => ({
  status: 200,
  body: JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'fake-model-2024',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  }),
})

const request = { jobId: 7n, serviceId: 3n, modelId: 'registered-model', prompt: 'Say hi.' }

beforeAll(async () => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text === '' ? null : JSON.parse(text) }
      fake.seen.push(seen)
      const { status, body } = fake.reply(seen)
      res.writeHead(status, { 'content-type': 'application/json' }).end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  fake = { url: `http://127.0.0.1:${port}`, server, seen: [], reply: () => completion('Hi!') }
})

beforeEach(() => {
  fake.seen = []
  fake.reply = () => completion('Hi!')
})

afterAll(async () => {
  fake.server.closeAllConnections()
  await new Promise((resolve) => fake.server.close(resolve))
})

test('default', async () => {
  const backend = createOpenAiBackend({ url: `${fake.url}/v1`, model: 'x', apiKey: 'sk-test' })
  expect(await backend.answer(request)).toEqual({
    output: 'Hi!',
    usage: { model: 'fake-model-2024', promptTokens: 11, completionTokens: 5 },
  })
  expect(fake.seen).toHaveLength(1)
  expect(fake.seen[0]).toMatchObject({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
    body: { model: 'x', messages: [{ role: 'user', content: 'Say hi.' }] },
  })
})

describe('parameters', () => {
  test('model defaults to the service modelId, no key means no Authorization header', async () => {
    await createOpenAiBackend({ url: `${fake.url}/v1/` }).answer(request)
    expect(fake.seen[0]!.url).toBe('/v1/chat/completions')
    expect(fake.seen[0]!.body).toMatchObject({ model: 'registered-model' })
    expect(fake.seen[0]!.headers.authorization).toBeUndefined()
  })

  test('an answer without usage counts zero tokens', async () => {
    fake.reply = () => ({ status: 200, body: JSON.stringify({ choices: [{ message: { content: 'ok' } }] }) })
    expect(await createOpenAiBackend({ url: fake.url }).answer(request)).toEqual({
      output: 'ok',
      usage: { model: 'registered-model', promptTokens: 0, completionTokens: 0 },
    })
  })
})

describe('errors', () => {
  test.each([
    ['an HTTP error', { status: 500, body: '{"error":{"message":"overloaded"}}' }, /answered HTTP 500/],
    ['a body that is not JSON', { status: 200, body: '<html>' }, /not JSON/],
    ['no choices', { status: 200, body: '{"choices":[]}' }, /without choices/],
  ])('%s is a SellerBackendError', async (_, reply, message) => {
    fake.reply = () => reply
    const answer = createOpenAiBackend({ url: fake.url }).answer(request)
    await expect(answer).rejects.toBeInstanceOf(SellerBackendError)
    await expect(answer).rejects.toThrow(message)
  })

  test('an unreachable endpoint is a SellerBackendError', async () => {
    const answer = createOpenAiBackend({ url: 'http://127.0.0.1:1/v1' }).answer(request)
    await expect(answer).rejects.toThrow(/could not be reached/)
  })
})

test('a seller on the OpenAI backend settles with the endpoint answer, retrying while it fails', async () => {
  const fixture = await startSellerFixture()
  const seller = testAccount(14)
  const buyer = testAccount(15)
  const signingKey = generatePrivateKey()
  const serviceId = await fixture.registerService({
    seller,
    signingAddress: privateKeyToAccount(signingKey).address,
    modelId: 'remote-model',
    providerIdentity: 'fake-openai',
  })
  let failing = true
  fake.reply = ({ body }) => {
    if (failing) return { status: 503, body: '{}' }
    const prompt = (body as { messages: { content: string }[] }).messages[0]!.content
    return completion(`Remote answer to: ${prompt}`, { prompt_tokens: 4, completion_tokens: 6 })
  }
  const referenceSeller = await startReferenceSeller({
    rpcUrl: fixture.rpcUrl,
    deployment: fixture.deployment,
    services: [{ serviceId, sellerKey: seller, signingKey }],
    port: 0,
    pollingIntervalMs: 100,
    backend: createOpenAiBackend({ url: `${fake.url}/v1` }),
  })
  try {
    const jobId = await fixture.createJob({ buyer, serviceId, prompt: 'What is 2 + 2?' })
    // Held Pending while the endpoint fails, then answered once it recovers.
    while (fake.seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await fixture.readJob(jobId)).state).toBe(0)
    failing = false

    const job = await fixture.waitForSettled(jobId)
    expect(job.state).toBe(3)
    const output = 'Remote answer to: What is 2 + 2?'
    expect(job.outputRootHash).toBe(keccak256(stringToHex(output)))
    expect(recoverAttestationSigner({ text: job.attestationText, signature: job.attestationSignature }).signer).toBe(
      privateKeyToAccount(signingKey).address,
    )
    expect(parseAttestationText(job.attestationText)).toMatchObject({
      usageHash: keccak256(
        stringToHex(JSON.stringify({ jobId: jobId.toString(), model: 'fake-model-2024', promptTokens: 4, completionTokens: 6 })),
      ).slice(2),
      providerIdentity: 'fake-openai',
    })
    const served = await fixture.fetchOutput(referenceSeller.url, jobId, buyer)
    expect(served).toEqual({ status: 200, body: { jobId: jobId.toString(), output, outputRootHash: job.outputRootHash } })
  } finally {
    await referenceSeller.stop()
    await fixture.stop()
  }
})
