import { toHex, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { toJob, type JobStruct } from '../../chain/mappers/toJob.ts'
import { jobFromJson, jobToJson } from '../../server/durable/storedJson.ts'
import type { JobSnapshot } from '../../server/store/StoreWriter.ts'

/*
 * Jobs are kept by position, without what is derived: what a load gives back must be what toJob
 * built from the chain, key order included (MCP serves a job's keys in the object's order).
 */
const hash = (digit: string): Hex => `0x${digit.repeat(64)}`
const struct = (fields: Partial<JobStruct>): JobStruct => ({
  serviceId: 4n,
  buyer: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
  seller: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  amount: 1_500_000_000_000_000n,
  protocolFee: 75_000_000_000_000n,
  createdAt: 1_778_220_100n,
  timeout: 1_778_306_500n,
  state: 0,
  inputCommitment: hash('1'),
  outputRootHash: hash('0'),
  chatId: hash('0'),
  attestationText: '0x',
  attestationSignature: '0x',
  ...fields,
})
const attested = (text: string): Partial<JobStruct> => ({
  state: 3,
  outputRootHash: hash('a'),
  chatId: hash('c'),
  attestationText: toHex(text),
  attestationSignature: `0x${'12'.repeat(65)}`,
})
const events: JobSnapshot['events'] = [
  { event: { event: 'JobCreated', blockNumber: '100', transactionHash: hash('e'), logIndex: 4, timestamp: '1778220100' }, settledWei: undefined, dispute: undefined },
  { event: { event: 'JobSettled', blockNumber: '114', transactionHash: hash('f'), logIndex: 59, timestamp: '1778220114' }, settledWei: 1_500_000_000_000_000n, dispute: undefined },
]

describe('a stored job comes back as toJob built it', () => {
  test.each([
    ['pending, no attestation keys', struct({})],
    ['expired past Attested without an attestation', struct({ state: 4 })],
    ['settled, content hash the output root hash', struct(attested(`${'a'.repeat(64)}:${'b'.repeat(64)}:centralized:openai:${'d'.repeat(64)}`))],
    ['settled, content hash of its own', struct(attested(`${'9'.repeat(64)}:${'b'.repeat(64)}:centralized:novita-ai:${'d'.repeat(64)}`))],
    ['attested, text the verifier would refuse (attestation null)', struct(attested('not an attestation'))],
  ])('%s', (_, chainStruct) => {
    const job = toJob(7n, chainStruct)
    const text = jobToJson({ job, events })
    const loaded = jobFromJson(text)
    expect(JSON.stringify(loaded.job)).toBe(JSON.stringify(job))
    expect(loaded.events).toEqual(events)
    // Derived values are not kept: neither the state's name nor a content hash the output root hash holds.
    expect(text).not.toContain(`"${job.stateName}"`)
    const contentHash = job.attestation?.contentHash
    if (contentHash !== undefined && contentHash === job.outputRootHash?.slice(2)) expect(text.split(contentHash)).toHaveLength(2)
  })
})

test('a job holding only some of the attestation keys is refused, naming them', () => {
  const { attestation: _, ...partial } = toJob(7n, struct(attested(`${'a'.repeat(64)}:${'b'.repeat(64)}:centralized:openai:${'d'.repeat(64)}`)))
  expect(() => jobToJson({ job: partial, events })).toThrow(/Job 7 holds 4 of the attestation keys \(outputRootHash, chatId, attestationText, attestationSignature, attestation\)/)
})
