import { type Hex, bytesToHex, hexToBytes, keccak256, stringToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { JobStruct } from '../../chain/mappers/toJob.ts'
import { signAttestation } from '../../chain/attestation/signAttestation.ts'
import { VerifyAttestationResultSchema, type VerifyAttestationResult } from '../../contract/mcp.ts'
import { connectStdioMcp, textOf, type StdioMcp } from './support/connectStdioMcp.ts'
import { devnetEnv } from './support/devnetEnv.ts'
import { seededJobs } from './support/seededJobs.ts'
import type { InterceptingRpc } from './support/startInterceptingRpc.ts'
import { startTamperingRpc } from './support/startTamperingRpc.ts'

const devnet = inject('devnet')
const curveOrder = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const strangerKey = keccak256(stringToHex('a key no service registered'))

/** What the proxy does to a job's getJob answer, by job id; set for one test at a time. */
const tampering = new Map<bigint, (job: JobStruct) => JobStruct>()

let rpc: InterceptingRpc
let mcp: StdioMcp

beforeAll(async () => {
  rpc = await startTamperingRpc({
    target: devnet.rpcUrl,
    escrow: devnet.deployment.escrow,
    tamper: (jobId, job) => tampering.get(jobId)?.(job),
  })
  mcp = await connectStdioMcp({ env: devnetEnv({ ...devnet, rpcUrl: rpc.url }) })
})

afterAll(async () => {
  await mcp?.close()
  await rpc?.stop()
})

async function verify(jobId: bigint | string): Promise<VerifyAttestationResult> {
  const result = await mcp.call('verify_attestation', { jobId: String(jobId) })
  expect(result.isError ?? false).toBe(false)
  return VerifyAttestationResultSchema.parse(JSON.parse(textOf(result)))
}

test('default: an untouched job verifies through the proxy', async () => {
  const result = await verify(seededJobs.settled)
  expect(result.ok).toBe(true)
})

describe('a node lying about the attestation bytes: ok false, and the note says what failed', () => {
  test('text changed after signing: recovers to another address', async () => {
    const honest = await verify(seededJobs.settled)
    const jobId = BigInt(seededJobs.settled)
    tampering.set(jobId, (job) => {
      const bytes = hexToBytes(job.attestationText)
      bytes[0] = bytes[0] === 0x61 ? 0x62 : 0x61
      return { ...job, attestationText: bytesToHex(bytes) }
    })
    try {
      const result = await verify(jobId)
      expect(result.ok).toBe(false)
      expect(result.expectedSigner).toBe(honest.expectedSigner)
      expect(result.recoveredSigner).not.toBeNull()
      expect(result.recoveredSigner).not.toBe(honest.expectedSigner)
      expect(result.note).toBe(
        `The signature recovers to ${result.recoveredSigner}, which is not the service's registered signingAddress ${result.expectedSigner}.`,
      )
    } finally {
      tampering.delete(jobId)
    }
  })

  test('signed by a key the service never registered', async () => {
    const jobId = BigInt(seededJobs.settled)
    const { text } = await textOfJob(jobId)
    const signature = await signAttestation(strangerKey, { text })
    tampering.set(jobId, (job) => ({ ...job, attestationSignature: signature }))
    try {
      const result = await verify(jobId)
      expect(result.ok).toBe(false)
      expect(result.recoveredSigner).toBe(privateKeyToAccount(strangerKey).address)
      expect(result.note).toBe(
        `The signature recovers to ${result.recoveredSigner}, which is not the service's registered signingAddress ${result.expectedSigner}.`,
      )
    } finally {
      tampering.delete(jobId)
    }
  })

  test.each([
    ['64 bytes long', (signature: Hex) => bytesToHex(hexToBytes(signature).subarray(0, 64)), 'invalid_signature_length'],
    ['high s', highS, 'invalid_signature_s'],
    ['v = 0', (signature: Hex) => withV(signature, 0), 'invalid_signature'],
  ])('a malformed signature (%s): recoveredSigner null', async (_, mangle, reason) => {
    const jobId = BigInt(seededJobs.settled)
    tampering.set(jobId, (job) => ({ ...job, attestationSignature: mangle(job.attestationSignature) }))
    try {
      const result = await verify(jobId)
      expect(result.ok).toBe(false)
      expect(result.recoveredSigner).toBeNull()
      expect(result.note).toContain('The signature is malformed')
      expect(result.note).toContain(`(${reason})`)
    } finally {
      tampering.delete(jobId)
    }
  })
})

async function textOfJob(jobId: bigint): Promise<{ text: Hex }> {
  const result = await mcp.call('get_job', { jobId: jobId.toString() })
  const job = JSON.parse(textOf(result)) as { attestationText?: Hex }
  if (job.attestationText === undefined) throw new Error(`seeded job ${jobId} has no attestation`)
  return { text: job.attestationText }
}

/** The same signature with s replaced by n - s (and v flipped): valid for ecrecover, refused by OpenZeppelin. */
function highS(signature: Hex): Hex {
  const bytes = hexToBytes(signature)
  const s = BigInt(bytesToHex(bytes.subarray(32, 64)))
  const flipped = hexToBytes(`0x${(curveOrder - s).toString(16).padStart(64, '0')}`)
  bytes.set(flipped, 32)
  bytes[64] = bytes[64] === 27 ? 28 : 27
  return bytesToHex(bytes)
}

function withV(signature: Hex, v: number): Hex {
  const bytes = hexToBytes(signature)
  bytes[64] = v
  return bytesToHex(bytes)
}
