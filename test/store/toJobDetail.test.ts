import { keccak256, stringToHex } from 'viem'
import { describe, expect, test } from 'vitest'
import { buildAttestationText } from '../../chain/attestation/buildAttestationText.ts'
import { toJob, type JobStruct } from '../../chain/mappers/toJob.ts'
import { JobDetailSchema, JobSchema, jobAttestationKeys, type JobEvent } from '../../contract/job.ts'
import { toJobDetail } from '../../server/readers/toJobDetail.ts'

// The compact builders must not change a single served value: toJob against the values it reads,
// and toJobDetail against the job it copies (every key of every shape, so a key added to the
// schema and to toJob but forgotten here fails).
const outputRootHash = keccak256(stringToHex('output'))
const fingerprint = keccak256(stringToHex('tls certificate'))

const struct = (overrides: Partial<JobStruct>): JobStruct => ({
  serviceId: 3n,
  buyer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  seller: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  amount: 10n ** 16n,
  protocolFee: 5n * 10n ** 14n,
  createdAt: 1_700_000_000n,
  timeout: 1_700_000_300n,
  state: 0,
  inputCommitment: keccak256(stringToHex('input')),
  outputRootHash: `0x${'00'.repeat(32)}`,
  chatId: `0x${'00'.repeat(32)}`,
  attestationText: '0x',
  attestationSignature: '0x',
  ...overrides,
})

const attested = (contentHash: string): JobStruct =>
  struct({
    state: 3,
    outputRootHash,
    chatId: keccak256(stringToHex('chat')),
    attestationText: buildAttestationText({
      contentHash,
      usageHash: keccak256(stringToHex('usage')),
      providerType: 'centralized',
      providerIdentity: 'openai',
      tlsCertFingerprint: fingerprint,
    }),
    attestationSignature: `0x${'11'.repeat(65)}`,
  })

const events: JobEvent[] = [
  { event: 'JobCreated', blockNumber: '7', transactionHash: `0x${'22'.repeat(32)}`, logIndex: 0, timestamp: '1700000000' },
]

describe('toJob', () => {
  test('below Attested: the struct as strings, no attestation keys', () => {
    const job = toJob(42n, struct({}))
    // In the schema's order, as the attested shape: MCP serializes a job in its own key order.
    const attestationKeys: readonly string[] = jobAttestationKeys
    expect(Object.keys(job)).toEqual(Object.keys(JobSchema.shape).filter((key) => !attestationKeys.includes(key)))
    expect(job).toStrictEqual({
      jobId: '42',
      serviceId: '3',
      buyer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      seller: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      amount: '10000000000000000',
      protocolFee: '500000000000000',
      createdAt: '1700000000',
      timeout: '1700000300',
      state: 0,
      stateName: 'Pending',
      inputCommitment: keccak256(stringToHex('input')),
    })
  })

  test.each([
    ['the output root hash', outputRootHash],
    ['another hash', keccak256(stringToHex('other content'))],
  ])('from Attested on, with a content hash equal to %s: every field exactly as written', (_, contentHash) => {
    const job = toJob(42n, attested(contentHash))
    expect(Object.keys(job)).toEqual(Object.keys(JobSchema.shape))
    expect(job.attestation).toStrictEqual({
      contentHash: contentHash.slice(2),
      usageHash: keccak256(stringToHex('usage')).slice(2),
      providerType: 'centralized',
      providerIdentity: 'openai',
      tlsCertFingerprint: fingerprint.slice(2),
    })
    expect(job.outputRootHash).toBe(outputRootHash)
    expect(JobSchema.parse(job)).toStrictEqual(job)
  })
})

describe('toJobDetail', () => {
  test.each([
    ['below Attested', toJob(1n, struct({}))],
    ['Attested and later', toJob(2n, attested(outputRootHash))],
    ['with an attestation that does not parse', toJob(3n, struct({ ...attested(outputRootHash), attestationText: '0x01' }))],
  ])('%s: every key of the job, in order, then its events', (_, job) => {
    const detail = toJobDetail(job, events)
    expect(Object.keys(detail)).toEqual([...Object.keys(job), 'events'])
    expect(detail).toStrictEqual({ ...job, events })
    expect(JobDetailSchema.parse(detail)).toStrictEqual(detail)
  })
})
