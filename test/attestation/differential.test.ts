import { secp256k1 } from '@noble/curves/secp256k1'
import {
  type Address,
  type Hex,
  bytesToHex,
  concatHex,
  createPublicClient,
  hexToBytes,
  http,
  numberToHex,
  sliceHex,
  zeroAddress,
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
import { signAttestation } from '../../chain/attestation/signAttestation.ts'
import { partsOf, withParts } from './support/signatureParts.ts'

/**
 * Off-chain recovery must give the on-chain verifier's answer for every input. Each generated
 * case goes through `recoverAttestationSigner` and the deployed `AttestationVerifier.tryRecover`;
 * signer and error class must agree exactly. The generator is seeded, so a failure replays.
 */

const seed = 0x5eed_a77e
const n = secp256k1.CURVE.n
const halfN = n / 2n

/** OpenZeppelin's RecoverError numbering, as `tryRecover` returns it. */
const errorCodes: Record<AttestationSignatureError, number> = {
  invalid_signature: 1,
  invalid_signature_length: 2,
  invalid_signature_s: 3,
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
  // tryRecover is pure, so the shared devnet serves; its verifier is the one deployContracts put there.
  const { rpcUrl, deployment } = inject('devnet')
  const cases = await generateCases()
  // A JSON-RPC batch transport turns the concurrent eth_calls into a few HTTP requests.
  const client = createPublicClient({ chain: hardhat, transport: http(rpcUrl, { batch: { batchSize: 200 } }) })

  const onChain = await Promise.all(
    cases.map(({ text, signature }) =>
      client.readContract({ address: deployment.attestationVerifier, abi: attestationVerifierAbi, functionName: 'tryRecover', args: [text, signature] }),
    ),
  )

  const mismatches: unknown[] = []
  const outcomes: Record<string, Record<string, number>> = {}
  cases.forEach((testCase, index) => {
    const [chainSigner, chainError] = onChain[index] ?? [zeroAddress, -1]
    const local = recoverAttestationSigner(testCase)
    const localSigner = local.signer ?? zeroAddress
    const localError = local.error === null ? 0 : errorCodes[local.error]
    if (localSigner !== chainSigner || localError !== chainError) {
      mismatches.push({ ...testCase, local, chain: { signer: chainSigner, error: chainError } })
    }
    // The generator's own claim: signed cases recover their key on both sides.
    if (testCase.signer !== undefined && testCase.signer !== chainSigner) {
      mismatches.push({ ...testCase, chain: { signer: chainSigner, error: chainError } })
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
