import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type Address, type Hex, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTeeRoot } from '../../devnet/tee/createTeeRoot.ts'
import { makeTdxQuote } from '../../devnet/tee/makeTdxQuote.ts'
import { checkGpuEvidence } from '../../tee/checkGpuEvidence.ts'
import { checkServiceTee } from '../../tee/checkServiceTee.ts'
import { createGpuVerifier } from '../../tee/createGpuVerifier.ts'
import { fromDcapCollateral } from '../../tee/toDcapCollateral.ts'
import { type StartedServer, startHttpServer } from './support/startHttpServer.ts'
import { writeEndlessBody } from './support/writeEndlessBody.ts'

// A fake NRAS on loopback, playing NVIDIA's `POST /v3/attest/gpu` and `/.well-known/jwks.json`
// with a P-384 key made here. The tokens are signed below with node:crypto as RFC 7518 §3.4
// writes ES384 (SHA-384, r‖s): the oracle, written apart from the code under test.
const nrasKey = generateKeyPairSync('ec', { namedCurve: 'P-384' })
const rogueKey = generateKeyPairSync('ec', { namedCurve: 'P-384' })
const kid = 'nv-eat-kid-test-1'
const jwks = { keys: [{ ...nrasKey.publicKey.export({ format: 'jwk' }), kid, alg: 'ES384', use: 'sig' }] }

const base64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url')
function signToken(claims: Record<string, unknown>, { key = nrasKey.privateKey, header = { kid, alg: 'ES384' } as Record<string, unknown> } = {}): string {
  const input = `${base64url(header)}.${base64url(claims)}`
  return `${input}.${sign('sha384', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
}

const nowSeconds = () => Math.floor(Date.now() / 1_000)
const overallClaims = (nonce: string, result: boolean) => ({
  sub: 'NVIDIA-PLATFORM-ATTESTATION', iss: 'https://nras.attestation.nvidia.com', 'x-nvidia-ver': '2.0',
  'x-nvidia-overall-att-result': result, eat_nonce: nonce, iat: nowSeconds(), nbf: nowSeconds(), exp: nowSeconds() + 3_600,
})
const gpuClaims = (nonce: string, measres = 'success') => ({
  iss: 'https://nras.attestation.nvidia.com', eat_nonce: nonce, measres, hwmodel: 'GH100 A01 GSP BROM', secboot: true,
  'x-nvidia-gpu-attestation-report-nonce-match': true, iat: nowSeconds(), exp: nowSeconds() + 3_600,
})

/** NRAS's answer as NEAR's docs and nvtrust's unified_eat_parser show it. */
const answer = (overall: string, gpus: string[]) => JSON.stringify([['JWT', overall], Object.fromEntries(gpus.map((token, index) => [`GPU-${index}`, token]))])

type Sent = { nonce: string; evidence_list: unknown[]; arch: string }
type Mode = (sent: Sent, response: ServerResponse) => void
const honest: Mode = (sent, response) => response.end(answer(signToken(overallClaims(sent.nonce, true)), sent.evidence_list.map(() => signToken(gpuClaims(sent.nonce)))))
const modes: Record<string, Mode> = {
  honest,
  refusing: (sent, response) => response.end(answer(signToken(overallClaims(sent.nonce, false)), [signToken(gpuClaims(sent.nonce, 'fail'))])),
  'other-nonce': (sent, response) => response.end(answer(signToken(overallClaims('22'.repeat(32), true)), [signToken(gpuClaims('22'.repeat(32)))])),
  'gpu-failed': (sent, response) => response.end(answer(signToken(overallClaims(sent.nonce, true)), [signToken(gpuClaims(sent.nonce, 'fail'))])),
  forged: (sent, response) => response.end(answer(signToken(overallClaims(sent.nonce, true), { key: rogueKey.privateKey }), [signToken(gpuClaims(sent.nonce))])),
  'alg-none': (sent, response) => response.end(answer(`${base64url({ alg: 'none', kid })}.${base64url(overallClaims(sent.nonce, true))}.AA`, [signToken(gpuClaims(sent.nonce))])),
  'unknown-kid': (sent, response) => response.end(answer(signToken(overallClaims(sent.nonce, true), { header: { kid: 'rotated-away', alg: 'ES384' } }), [signToken(gpuClaims(sent.nonce))])),
  down: (_, response) => response.writeHead(503).end('{"error":"maintenance"}'),
  garbage: (_, response) => response.end('{"ok":true}'),
  stall: (_, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.write('[["JWT","')
  },
  huge: (_, response) => writeEndlessBody(response),
  // Attests honestly, but its key set is not served.
  'no-keys': honest,
}

const requests: { path: string; method: string; contentType: string | undefined; body: string }[] = []
async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

let nras: StartedServer
let closedUrl: string
beforeAll(async () => {
  nras = await startHttpServer(async (request, response) => {
    const [, mode = '', ...rest] = (request.url ?? '/').split('/')
    const path = `/${rest.join('/')}`
    const body = await readBody(request)
    requests.push({ path: `/${mode}${path}`, method: request.method ?? '', contentType: request.headers['content-type'], body })
    if (path === '/.well-known/jwks.json') return void (mode === 'no-keys' ? response.writeHead(404).end() : response.end(JSON.stringify(jwks)))
    if (path !== '/v3/attest/gpu' || request.method !== 'POST' || modes[mode] === undefined) return void response.writeHead(404).end()
    modes[mode](JSON.parse(body) as Sent, response)
  })
  const closed = await startHttpServer((_, response) => response.end())
  closedUrl = closed.url
  await closed.close()
})
afterAll(() => nras.close())

const ourNonce = `0x${randomBytes(32).toString('hex')}` as Hex
const payloadWith = (nonce: string, gpus = 1) =>
  JSON.stringify({ nonce, evidence_list: Array.from({ length: gpus }, () => ({ certificate: 'Y2VydGlmaWNhdGU=', evidence: 'ZXZpZGVuY2U=' })), arch: 'HOPPER' })
const ourPayload = payloadWith(ourNonce.slice(2))
const verifierAt = (mode: string, overrides: Partial<Parameters<typeof createGpuVerifier>[0]> = {}) =>
  createGpuVerifier({ url: `${nras.url}/${mode}`, allowPrivate: true, timeoutMs: 2_000, ...overrides })
type CheckOptions = { nvidiaPayload?: string | undefined; nonce?: Hex | undefined; verifier?: ReturnType<typeof createGpuVerifier> }
// `in`, not defaults: a test passes undefined on purpose (no payload, no nonce sent).
const check = (mode: string, options: CheckOptions = {}) =>
  checkGpuEvidence({
    verifier: options.verifier ?? verifierAt(mode),
    nvidiaPayload: 'nvidiaPayload' in options ? options.nvidiaPayload : ourPayload,
    nonce: 'nonce' in options ? options.nonce : ourNonce,
    now: new Date(),
  })

test('default: NRAS attests every GPU with the nonce we sent: pass, the payload posted as NRAS takes it', async () => {
  const result = await check('honest', { nvidiaPayload: payloadWith(ourNonce.slice(2).toUpperCase(), 2) })
  expect(result).toEqual({ status: 'pass', reason: `NRAS at ${nras.url}/honest attests 2 GPU(s) (GPU-0, GPU-1) with the nonce we sent.` })
  const posted = requests.findLast((r) => r.path === '/honest/v3/attest/gpu')
  expect(posted).toMatchObject({ method: 'POST', contentType: 'application/json' })
  expect(JSON.parse(posted!.body)).toEqual({ nonce: ourNonce.slice(2), evidence_list: JSON.parse(payloadWith('x', 2)).evidence_list, arch: 'HOPPER' })
})

test("no nonce sent (0G's /v1/quote): pass on the payload's own nonce, saying it may be a replay", async () => {
  const result = await check('honest', { nonce: undefined })
  expect(result.status).toBe('pass')
  expect(result.reason).toContain("with the payload's own nonce (none was sent to this provider, so the report may be a replay)")
})

test('the endpoint itself given as the URL is taken for its base', async () => {
  expect((await check('honest', { verifier: verifierAt('honest/v3/attest/gpu/') })).status).toBe('pass')
})

describe('NRAS or the evidence says no: fail, with the reason', () => {
  test("NRAS's overall result is false", async () => {
    expect(await check('refusing')).toEqual({
      status: 'fail',
      reason: "The GPU evidence is not attested: NRAS's overall result (x-nvidia-overall-att-result) is \"false\", not true.",
    })
  })

  test("NRAS's token carries another nonce than the payload's", async () => {
    const { status, reason } = await check('other-nonce')
    expect(status).toBe('fail')
    expect(reason).toBe(`The GPU evidence is not attested: the overall token's eat_nonce "${'22'.repeat(32)}" is not the payload's nonce ${ourNonce.slice(2)}.`)
  })

  test('the payload carries another nonce than the one we sent: a replayed GPU report, NRAS not asked', async () => {
    const before = requests.length
    const { status, reason } = await check('honest', { nvidiaPayload: payloadWith('33'.repeat(32)) })
    expect(status).toBe('fail')
    expect(reason).toContain(`the payload's nonce ${'33'.repeat(32)} is not the nonce we sent (${ourNonce.slice(2)}): a replayed GPU report`)
    expect(requests.slice(before).filter((r) => r.path.endsWith('/v3/attest/gpu'))).toEqual([])
  })

  test("a GPU's measurement result is not success", async () => {
    expect((await check('gpu-failed')).reason).toBe('The GPU evidence is not attested: GPU-0\'s measurement result (measres) is "fail", not success.')
  })

  test('a signature by another key than the key set names', async () => {
    const { status, reason } = await check('forged')
    expect(status).toBe('fail')
    expect(reason).toBe("The overall token from NRAS does not verify: its signature is not by that key. An unexpired ES384 JWT signed by a key of the verifier's key set is required.")
  })

  test('an unsigned token (alg none), and a key id the key set lacks', async () => {
    expect((await check('alg-none')).reason).toContain('its algorithm is "none", not ES384')
    expect(await check('unknown-kid')).toMatchObject({ status: 'fail', reason: expect.stringContaining('its key id "rotated-away" is not in the verifier\'s key set') })
  })

  test('a payload that is not NVIDIA\'s layout', async () => {
    expect((await check('honest', { nvidiaPayload: '{"nonce":"00","evidence_list":[]}' })).reason).toBe(
      'The GPU evidence (nvidia_payload) is unusable: its nonce is not 32 bytes of hex. NVIDIA\'s remote-attestation payload is expected: {"nonce": 64 hex, "evidence_list": [{"certificate", "evidence"}], "arch"}.',
    )
    expect((await check('honest', { nvidiaPayload: JSON.stringify({ nonce: ourNonce, evidence_list: [{ certificate: 1 }], arch: 'HOPPER' }) })).reason).toContain(
      'evidence_list[0] is not an object with a certificate and an evidence string',
    )
  })
})

describe('NRAS cannot be had: skip, with the reason (not the provider\'s failure)', () => {
  test('it answers 503', async () => {
    expect(await check('down')).toEqual({
      status: 'skip',
      reason: `The GPU evidence could not be checked now: The NRAS attestation at "${nras.url}/down/v3/attest/gpu" could not be had: it answered 503. A 200 answer is expected.`,
    })
  })

  test('nothing listens', async () => {
    const { status, reason } = await check('honest', { verifier: createGpuVerifier({ url: closedUrl, allowPrivate: true, timeoutMs: 2_000 }) })
    expect(status).toBe('skip')
    expect(reason).toContain('could not be had: the connection failed')
  })

  test('it stalls past the deadline', async () => {
    const started = Date.now()
    const { status, reason } = await check('stall', { verifier: verifierAt('stall', { timeoutMs: 300 }) })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(status).toBe('skip')
    expect(reason).toContain('no full answer came within 0.3 s')
  })

  test('its body passes the byte cap', async () => {
    const { status, reason } = await check('huge', { verifier: verifierAt('huge', { maxBytes: 100_000 }) })
    expect(status).toBe('skip')
    expect(reason).toContain('it sent more than 100000 bytes')
  })

  test('it answers garbage', async () => {
    expect((await check('garbage')).reason).toContain('its body is not a list of the overall token and the GPUs\' tokens. NRAS\'s answer, [["JWT", <token>], {"GPU-0": <token>, …}], is expected.')
  })

  test('its key set cannot be had', async () => {
    const { status, reason } = await check('no-keys')
    expect(status).toBe('skip')
    expect(reason).toContain(`The NRAS key set at "${nras.url}/no-keys/.well-known/jwks.json" could not be had: it answered 404`)
  })

  test('a private address is refused unless allowed: NVIDIA\'s NRAS is public', async () => {
    const { status, reason } = await check('honest', { verifier: verifierAt('honest', { allowPrivate: false }) })
    expect(status).toBe('skip')
    expect(reason).toContain('"127.0.0.1" is a loopback address')
  })
})

describe('not opted in, or nothing to check: skip', () => {
  test('opt-in off: the reason says how to opt in', async () => {
    expect(await checkGpuEvidence({ verifier: undefined, nvidiaPayload: ourPayload, nonce: ourNonce, now: new Date() })).toEqual({
      status: 'skip',
      reason: 'GPU evidence (NVIDIA) was served; it is not checked unless an operator opts in with --tee-gpu-verifier (TEE_GPU_VERIFIER), e.g. https://nras.attestation.nvidia.com.',
    })
  })

  test('opted in, no nvidia_payload served', async () => {
    expect(await check('honest', { nvidiaPayload: undefined })).toEqual({ status: 'skip', reason: 'No GPU evidence was served.' })
  })
})

test("NRAS's key set is fetched once for many checks", async () => {
  const verifier = verifierAt('honest')
  const before = requests.filter((r) => r.path === '/honest/.well-known/jwks.json').length
  const results = await Promise.all([check('honest', { verifier }), check('honest', { verifier }), check('honest', { verifier })])
  expect(results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass'])
  expect(requests.filter((r) => r.path === '/honest/.well-known/jwks.json').length - before).toBe(1)
})

describe('through checkServiceTee: a provider with a TDX quote and GPU evidence', () => {
  // As test/tee/checkServiceTee.test.ts: the devnet's root, a quote binding the key and the nonce
  // (dstack/NEAR layout: address ‖ 12 zero bytes ‖ nonce), the GPU payload carrying the same nonce.
  const now = new Date()
  const root = createTeeRoot({ now })
  const signer: Address = getAddress('0x70997970c51812dc3a010c7d01b50e20d7e60a8f')
  const appCompose = '{"manifest_version":2,"name":"reference-seller","runner":"docker-compose"}'
  const composeHash = createHash('sha256').update(appCompose).digest('hex')
  let provider: StartedServer
  beforeAll(async () => {
    provider = await startHttpServer((request, response) => {
      const nonce = new URL(request.url ?? '/', 'http://x').searchParams.get('nonce') ?? ''
      const reportData = Uint8Array.from(Buffer.concat([Buffer.from(signer.slice(2), 'hex'), Buffer.alloc(12), Buffer.from(nonce, 'hex')]))
      const quote = makeTdxQuote(root, { reportData, mrConfigId: `0x01${composeHash}${'00'.repeat(15)}` })
      response.end(JSON.stringify({ signing_address: signer, request_nonce: nonce, intel_quote: Buffer.from(quote).toString('hex'), nvidia_payload: payloadWith(nonce), info: { tcb_info: JSON.stringify({ app_compose: appCompose }) } }))
    })
  })
  afterAll(() => provider.close())

  const judge = (gpuVerifier: ReturnType<typeof createGpuVerifier> | undefined) =>
    checkServiceTee({
      service: { serviceId: '7', providerAddress: getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906'), signingAddress: signer },
      readRecord: async () => ({ url: provider.url, model: 'm', verifiability: 'TeeML', targetSeparated: false, teeSignerAddress: signer, teeSignerAcknowledged: false }),
      collateral: async () => ({ collateral: fromDcapCollateral(root.collateral) }),
      now: () => now,
      rootCa: root.rootCa,
      maxAgeMs: 3_600_000,
      allowPrivate: true,
      gpuVerifier,
    })
  const gpuCheck = (verdict: Awaited<ReturnType<typeof judge>>['verdict']) => verdict.checks.find((c) => c.name === 'gpu')

  test('opted in, NRAS attests: verified, gpu passes', async () => {
    const { verdict } = await judge(verifierAt('honest'))
    expect(verdict.verdict).toBe('verified')
    expect(gpuCheck(verdict)).toMatchObject({ status: 'pass', reason: expect.stringContaining('with the nonce we sent') })
  })

  test('opted in, NRAS refuses: failed, naming gpu', async () => {
    const { verdict } = await judge(verifierAt('refusing'))
    expect(verdict.verdict).toBe('failed')
    expect(verdict.summary).toBe('The TEE evidence contradicts this service: gpu failed.')
  })

  test('opted in, NRAS down: the verdict rests on the rest (verified), gpu skipped with the reason', async () => {
    const { verdict } = await judge(verifierAt('down'))
    expect(verdict.verdict).toBe('verified')
    expect(gpuCheck(verdict)).toMatchObject({ status: 'skip', reason: expect.stringContaining('it answered 503') })
  })

  test('not opted in: skipped, saying how to opt in', async () => {
    const { verdict } = await judge(undefined)
    expect(verdict.verdict).toBe('verified')
    expect(gpuCheck(verdict)?.reason).toContain('--tee-gpu-verifier')
  })
})
