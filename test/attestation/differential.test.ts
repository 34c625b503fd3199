import { secp256k1 } from '@noble/curves/secp256k1'
import {
  type Address,
  BaseError as ViemBaseError,
  ContractFunctionRevertedError,
  type Hex,
  bytesToHex,
  concatHex,
  createPublicClient,
  hexToBytes,
  http,
  numberToHex,
  type PublicClient,
  sliceHex,
  stringToHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { expect, inject, test } from 'vitest'
import { attestationVerifierAbi } from '../../chain/abi/attestationVerifier.ts'
import { buildAttestationText } from '../../chain/attestation/buildAttestationText.ts'
import {
  type AttestationSignatureError,
  recoverAttestationSigner,
} from '../../chain/attestation/recoverAttestationSigner.ts'
import { parseAttestationText } from '../../chain/attestation/parseAttestationText.ts'
import { signAttestation } from '../../chain/attestation/signAttestation.ts'
import type { AttestationFields } from '../../contract/attestation.ts'
import { partsOf, withParts } from './support/signatureParts.ts'

/**
 * Off-chain code must give the on-chain verifier's answer for every input. Recovery: each
 * generated case goes through `recoverAttestationSigner` and the deployed verifier's `recover`,
 * which returns the signer or reverts with OpenZeppelin's error; signer and error class must agree
 * exactly. Parsing: each text goes through `parseAttestationText` and the verifier's
 * `parseAttestationText`; both must parse it to the same fields or both refuse it. The generators
 * are seeded, so a failure replays.
 */

const seed = 0x5eed_a77e
const n = secp256k1.CURVE.n
const halfN = n / 2n

/** The verifier's revert for each error class of `recoverAttestationSigner`. */
const errorNames: Record<AttestationSignatureError, string> = {
  invalid_signature: 'ECDSAInvalidSignature',
  invalid_signature_length: 'ECDSAInvalidSignatureLength',
  invalid_signature_s: 'ECDSAInvalidSignatureS',
}

/** Calls a verifier function: its result, or the name of the custom error it reverted with. */
async function onChain<result>(call: () => Promise<result>): Promise<{ result: result } | { reverted: string }> {
  try {
    return { result: await call() }
  } catch (error) {
    const reverted = error instanceof ViemBaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
    if (!(reverted instanceof ContractFunctionRevertedError) || reverted.data === undefined) throw error
    return { reverted: reverted.data.errorName }
  }
}

/** eth_calls per JSON-RPC batch: a part a slow node answers in a few seconds. */
const partSize = 50

function createClient(): { client: PublicClient; verifier: Address } {
  // The verifier's functions are pure, so the shared devnet serves.
  const { rpcUrl, deployment } = inject('devnet')
  // Each part is one HTTP request. The deadline is far above a part's time, because the shared node
  // also serves the other test files and answers in turn.
  const client = createPublicClient({ chain: hardhat, transport: http(rpcUrl, { batch: { batchSize: partSize }, timeout: 60_000 }) })
  return { client: client as PublicClient, verifier: deployment.attestationVerifier }
}

/** Parts at the node at once: each waits behind one other at most, and the node is never idle. */
const partsInFlight = 2

/**
 * Reads the items in parts, `partsInFlight` at a time. Sent all at once, the last batches would
 * wait at the node behind all the others, past any deadline on a slow host.
 */
async function inParts<item, result>(items: readonly item[], read: (item: item) => Promise<result>): Promise<result[]> {
  const parts = Array.from({ length: Math.ceil(items.length / partSize) }, (_, index) => items.slice(index * partSize, (index + 1) * partSize))
  const results: result[][] = []
  let next = 0
  const runPart = async (): Promise<void> => {
    for (let index = next++; index < parts.length; index = next++) results[index] = await Promise.all((parts[index] as item[]).map(read))
  }
  await Promise.all(Array.from({ length: partsInFlight }, runPart))
  return results.flat()
}

type Case = { category: string; text: Hex; signature: Hex; signer?: Address }

/** mulberry32: small, fast, and good enough to spread cases over the input space. */
function createRandom(state: number) {
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (max: number): number => Math.floor(next() * max)
  const bytes = (length: number): Uint8Array => Uint8Array.from({ length }, () => int(256))
  const bigint = (): bigint => BigInt(bytesToHex(bytes(32)))
  const pick = <item>(items: readonly item[]): item => items[int(items.length)] as item
  return { int, bytes, bigint, pick }
}

const random = createRandom(seed)

function word(value: bigint): Hex {
  return numberToHex(value, { size: 32 })
}

function randomText(): Hex {
  const kind = random.int(4)
  if (kind === 0) {
    return buildAttestationText({
      contentHash: bytesToHex(random.bytes(32)),
      usageHash: bytesToHex(random.bytes(32)),
      providerType: 'centralized',
      providerIdentity: random.pick(['openai', 'anthropic', 'together', '']),
      tlsCertFingerprint: bytesToHex(random.bytes(32)),
    })
  }
  // Arbitrary bytes and lengths across the 1/2/3/4-digit boundaries of the EIP-191 length prefix.
  if (kind === 1) return bytesToHex(random.bytes(random.int(12)))
  if (kind === 2) return bytesToHex(random.bytes(random.pick([9, 10, 99, 100, 101, 999, 1000, 1001])))
  return bytesToHex(random.bytes(random.int(300)))
}

/** An x coordinate below n with no curve point (about half of all values). */
function randomNotOnCurve(): bigint {
  for (;;) {
    const x = random.bigint() % n
    try {
      secp256k1.ProjectivePoint.fromHex(`02${x.toString(16).padStart(64, '0')}`)
    } catch {
      return x
    }
  }
}

const keys = Array.from({ length: 6 }, () => bytesToHex(random.bytes(32)))

/** A well-formed signature over `text` by one of the keys. */
async function signed(text = randomText()): Promise<{ text: Hex; signature: Hex; signer: Address }> {
  const key = random.pick(keys)
  return { text, signature: await signAttestation(key, { text }), signer: privateKeyToAccount(key).address }
}

async function generateCases(): Promise<Case[]> {
  const cases: Case[] = []
  const repeat = async (count: number, make: () => Promise<Case> | Case): Promise<void> => {
    for (let i = 0; i < count; i++) cases.push(await make())
  }

  await repeat(250, async () => ({ category: 'valid', ...(await signed()) }))
  await repeat(40, async () => ({ category: 'valid, empty text', ...(await signed('0x')) }))
  await repeat(100, async () => {
    const { text, signature } = await signed()
    const { s, v } = partsOf(signature)
    return { category: 'high s (n - s, v flipped)', text, signature: withParts(signature, { s: n - s, v: v === 27 ? 28 : 27 }) }
  })
  await repeat(20, async () => {
    const { text, signature } = await signed()
    return { category: 's = n/2 and n/2 + 1', text, signature: withParts(signature, { s: halfN + BigInt(random.int(2)) }) }
  })
  await repeat(120, async () => {
    const { text, signature } = await signed()
    return { category: 'v in 0/1/26/29', text, signature: withParts(signature, { v: random.pick([0, 1, 26, 29]) }) }
  })
  await repeat(30, async () => {
    const { text, signature } = await signed()
    return { category: 'v other (2..255)', text, signature: withParts(signature, { v: 2 + random.int(254) }) }
  })
  await repeat(50, async () => {
    const { text, signature } = await signed()
    return { category: 'short (64 bytes)', text, signature: sliceHex(signature, 0, 64) }
  })
  await repeat(50, async () => {
    const { text, signature } = await signed()
    return { category: 'long (66 bytes)', text, signature: concatHex([signature, bytesToHex(random.bytes(1))]) }
  })
  await repeat(20, async () => ({ category: 'empty signature', text: (await signed()).text, signature: '0x' }))
  await repeat(40, () => ({
    category: 'junk of another length',
    text: randomText(),
    signature: bytesToHex(random.bytes(random.pick([1, 32, 63, 67, 96, 128, 130]))),
  }))
  await repeat(100, async () => {
    const { text, signature } = await signed(bytesToHex(random.bytes(1 + random.int(200))))
    const bytes = hexToBytes(text)
    const at = random.int(bytes.length)
    bytes[at] = ((bytes[at] ?? 0) + 1 + random.int(255)) % 256
    return { category: 'tampered text (one byte)', text: bytesToHex(bytes), signature }
  })
  await repeat(120, () => ({ category: 'junk 65 bytes', text: randomText(), signature: bytesToHex(random.bytes(65)) }))
  await repeat(100, () => ({
    category: 'junk r, low s, v 27/28',
    text: randomText(),
    signature: concatHex([word(random.bigint()), word(random.bigint() % halfN), numberToHex(random.pick([27, 28]), { size: 1 })]),
  }))
  await repeat(30, async () => {
    const { text, signature } = await signed()
    return { category: 'r not on the curve', text, signature: withParts(signature, { r: randomNotOnCurve() }) }
  })
  await repeat(30, async () => {
    const { text, signature } = await signed()
    return { category: 'r = 0', text, signature: withParts(signature, { r: 0n }) }
  })
  await repeat(30, async () => {
    const { text, signature } = await signed()
    return { category: 's = 0', text, signature: withParts(signature, { s: 0n, v: random.pick([27, 28, 0, 1]) }) }
  })
  await repeat(40, async () => {
    const { text, signature } = await signed()
    const r = random.pick([n, n + 1n, n + BigInt(random.int(1 << 30)), 2n ** 256n - 1n])
    return { category: 'r >= n', text, signature: withParts(signature, { r }) }
  })
  return cases
}

test('off-chain recovery agrees with the on-chain verifier on every case', async () => {
  const { client, verifier } = createClient()
  const cases = await generateCases()

  const answers = await inParts(cases, ({ text, signature }) =>
    onChain(() => client.readContract({ address: verifier, abi: attestationVerifierAbi, functionName: 'recover', args: [text, signature] })),
  )

  const mismatches: unknown[] = []
  const outcomes: Record<string, Record<string, number>> = {}
  cases.forEach((testCase, index) => {
    const chain = answers[index]!
    const local = recoverAttestationSigner(testCase)
    const agrees =
      'result' in chain ? local.signer === chain.result : local.error !== null && errorNames[local.error] === chain.reverted
    if (!agrees) mismatches.push({ ...testCase, local, chain })
    // The generator's own claim: signed cases recover their key on both sides.
    if (testCase.signer !== undefined && !('result' in chain && chain.result === testCase.signer)) {
      mismatches.push({ ...testCase, chain })
    }
    const outcome = local.error ?? 'recovered'
    const byOutcome = (outcomes[testCase.category] ??= {})
    byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1
  })

  expect(mismatches.slice(0, 5)).toEqual([])
  expect(cases.length).toBeGreaterThanOrEqual(1000)
  // Seeded, so the spread of outcomes is fixed: every error class is exercised, and each
  // category lands where OpenZeppelin's rules say it should.
  expect(outcomes).toMatchInlineSnapshot(`
    {
      "empty signature": {
        "invalid_signature_length": 20,
      },
      "high s (n - s, v flipped)": {
        "invalid_signature_s": 100,
      },
      "junk 65 bytes": {
        "invalid_signature": 61,
        "invalid_signature_s": 58,
        "recovered": 1,
      },
      "junk of another length": {
        "invalid_signature_length": 40,
      },
      "junk r, low s, v 27/28": {
        "invalid_signature": 50,
        "recovered": 50,
      },
      "long (66 bytes)": {
        "invalid_signature_length": 50,
      },
      "r = 0": {
        "invalid_signature": 30,
      },
      "r >= n": {
        "invalid_signature": 40,
      },
      "r not on the curve": {
        "invalid_signature": 30,
      },
      "s = 0": {
        "invalid_signature": 30,
      },
      "s = n/2 and n/2 + 1": {
        "invalid_signature_s": 6,
        "recovered": 14,
      },
      "short (64 bytes)": {
        "invalid_signature_length": 50,
      },
      "tampered text (one byte)": {
        "recovered": 100,
      },
      "v in 0/1/26/29": {
        "invalid_signature": 120,
      },
      "v other (2..255)": {
        "invalid_signature": 30,
      },
      "valid": {
        "recovered": 250,
      },
      "valid, empty text": {
        "recovered": 40,
      },
    }
  `)
})

const hexDigits = '0123456789abcdefABCDEF'
const providerWords = ['centralized', 'openai', 'together-ai', 'décentralisé', '提供者', '🚀', 'a', 'é', '']

type ParseCase = { category: string; text: Hex }

function randomHash(): string {
  return Array.from({ length: 64 }, () => hexDigits[random.int(hexDigits.length)]).join('')
}

function randomProvider(): string {
  return random.int(4) === 0 ? random.pick(providerWords) : random.pick(providerWords) + random.pick(providerWords)
}

function wellFormed({ type = randomProvider(), identity = randomProvider() } = {}): string {
  return `${randomHash()}:${randomHash()}:${type}:${identity}:${randomHash()}`
}

/** Replaces, inserts or deletes one byte of `text` at a random place. */
function mutated(text: Hex): Hex {
  const bytes = [...hexToBytes(text)]
  const at = random.int(bytes.length + 1)
  const byte = random.pick([0x3a, 0x30, 0x67, 0x41, 0x20, 0xff, random.int(256)])
  const kind = random.int(3)
  if (kind === 0 && at < bytes.length) bytes[at] = byte
  else if (kind === 1) bytes.splice(at, 0, byte)
  else bytes.splice(Math.min(at, bytes.length - 1), 1)
  return bytesToHex(Uint8Array.from(bytes))
}

function generateParseCases(): ParseCase[] {
  const cases: ParseCase[] = []
  const repeat = (count: number, category: string, make: () => Hex): void => {
    for (let i = 0; i < count; i++) cases.push({ category, text: make() })
  }
  repeat(250, 'well formed, provider fields of any UTF-8', () => stringToHex(wellFormed()))
  repeat(80, 'provider fields of 0 to 3 bytes together (the 198-byte minimum)', () => {
    const total = random.int(4)
    const split = random.int(total + 1)
    return stringToHex(wellFormed({ type: 'x'.repeat(split), identity: 'y'.repeat(total - split) }))
  })
  repeat(60, 'provider fields with bytes that are not UTF-8', () =>
    concatHex([
      stringToHex(`${randomHash()}:${randomHash()}:`),
      bytesToHex(random.bytes(1 + random.int(4)).map((byte) => (byte === 0x3a ? 0xff : byte))),
      stringToHex(`:ok:${randomHash()}`),
    ]),
  )
  repeat(350, 'one byte replaced, inserted or deleted', () => mutated(stringToHex(wellFormed())))
  repeat(80, 'a fingerprint of 63 or 65 digits', () => {
    const text = wellFormed()
    return stringToHex(random.int(2) === 0 ? text.slice(0, -1) : `${text}${random.pick([...hexDigits])}`)
  })
  repeat(60, 'one colon too many or too few', () => {
    const text = wellFormed({ type: 'centralized', identity: 'openai' })
    return stringToHex(random.int(2) === 0 ? text.replace(':openai', ':open:ai') : text.replace('centralized:', 'centralized-'))
  })
  repeat(60, 'random bytes around the separators', () =>
    concatHex([
      bytesToHex(random.bytes(64)),
      '0x3a',
      bytesToHex(random.bytes(64)),
      '0x3a',
      bytesToHex(random.bytes(random.int(20))),
      '0x3a',
      bytesToHex(random.bytes(64)),
    ]),
  )
  repeat(60, 'random bytes of any length', () => bytesToHex(random.bytes(random.int(260))))
  return cases
}

test('off-chain parsing agrees with the on-chain verifier on every case', async () => {
  const { client, verifier } = createClient()
  const cases = generateParseCases()
  expect(cases.length).toBeGreaterThanOrEqual(1000)

  const answers = await inParts(cases, ({ text }) =>
    onChain(() => client.readContract({ address: verifier, abi: attestationVerifierAbi, functionName: 'parseAttestationText', args: [text] })),
  )
  const asChainReturns = (fields: AttestationFields): unknown[] => [
    `0x${fields.contentHash.toLowerCase()}`,
    `0x${fields.usageHash.toLowerCase()}`,
    fields.providerType,
    fields.providerIdentity,
    `0x${fields.tlsCertFingerprint.toLowerCase()}`,
  ]

  const mismatches: unknown[] = []
  const outcomes: Record<string, Record<string, number>> = {}
  cases.forEach(({ category, text }, index) => {
    const chain = answers[index]!
    const local = parseAttestationText(text)
    const agrees =
      'result' in chain ? local !== null && JSON.stringify(asChainReturns(local)) === JSON.stringify(chain.result) : local === null
    if (!agrees) mismatches.push({ category, text, local, chain })
    const outcome = 'result' in chain ? 'parsed' : chain.reverted
    const byOutcome = (outcomes[category] ??= {})
    byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1
  })

  expect(mismatches.slice(0, 5)).toEqual([])
  // Seeded, so the spread is fixed: both answers and every way of refusing are exercised.
  expect(outcomes).toMatchInlineSnapshot(`
    {
      "a fingerprint of 63 or 65 digits": {
        "InvalidLength": 80,
      },
      "one byte replaced, inserted or deleted": {
        "InvalidHexChar": 191,
        "InvalidLength": 68,
        "MissingSeparator": 28,
        "parsed": 63,
      },
      "one colon too many or too few": {
        "InvalidLength": 31,
        "MissingSeparator": 29,
      },
      "provider fields of 0 to 3 bytes together (the 198-byte minimum)": {
        "InvalidLength": 41,
        "parsed": 39,
      },
      "provider fields with bytes that are not UTF-8": {
        "parsed": 60,
      },
      "random bytes around the separators": {
        "InvalidHexChar": 57,
        "InvalidLength": 3,
      },
      "random bytes of any length": {
        "InvalidHexChar": 23,
        "InvalidLength": 37,
      },
      "well formed, provider fields of any UTF-8": {
        "parsed": 250,
      },
    }
  `)
})
