import { toHex } from 'viem'
import { describe, expect, test } from 'vitest'
import { type Job, JobDetailSchema, JobSchema, jobStateNames, refineJobKeys } from '../../contract/job.ts'
import { JobListSchema } from '../../contract/lists.ts'
import { marketContract } from '../../contract/router.ts'

const hash = (byte: string) => `0x${byte.repeat(32)}` as const
const seller = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const buyer = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

function jobIn(state: number): Job {
  return {
    jobId: '7',
    serviceId: '1',
    buyer,
    seller,
    amount: '1000000000000000',
    protocolFee: '50000000000000',
    createdAt: '1778220000',
    timeout: '1778220300',
    state,
    stateName: jobStateNames[state]!,
    inputCommitment: hash('aa'),
  }
}

const attestationKeys = {
  outputRootHash: hash('bb'),
  chatId: hash('cc'),
  attestationText: toHex(`${'ab'.repeat(32)}:${'cd'.repeat(32)}:centralized:openai:${'ef'.repeat(32)}`),
  attestationSignature: `0x${'11'.repeat(64)}1b`,
  attestation: {
    contentHash: 'ab'.repeat(32),
    usageHash: 'cd'.repeat(32),
    providerType: 'centralized',
    providerIdentity: 'openai',
    tlsCertFingerprint: 'ef'.repeat(32),
  },
} as const

const CheckedJobSchema = refineJobKeys(JobSchema)

test('default: state numbers and names as decided', () => {
  expect(jobStateNames).toEqual(['Pending', 'Sealed', 'Attested', 'Settled', 'Expired', 'Disputed', 'Slashed'])
})

describe('key presence rule', () => {
  test.each([0, 1])('state %i without attestation keys is valid', (state) => {
    const job = jobIn(state)
    expect(CheckedJobSchema.parse(job)).toEqual(job)
  })

  test.each([0, 1])('state %i with attestation keys is rejected', (state) => {
    const result = CheckedJobSchema.safeParse({ ...jobIn(state), ...attestationKeys })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(Object.keys(attestationKeys))
  })

  test('a single attestation key below Attested is rejected', () => {
    const result = CheckedJobSchema.safeParse({ ...jobIn(0), chatId: hash('cc') })
    expect(result.error?.issues).toMatchObject([
      { path: ['chatId'], message: 'Must be absent below state 2 (Attested); the job is in state 0 (Pending).' },
    ])
  })

  test.each([2, 3, 5, 6])('state %i with every attestation key is valid', (state) => {
    const job = { ...jobIn(state), ...attestationKeys }
    expect(CheckedJobSchema.parse(job)).toEqual(job)
  })

  test('an attestation text that does not parse is kept, with attestation null', () => {
    const job = { ...jobIn(3), ...attestationKeys, attestationText: toHex('not five fields'), attestation: null }
    expect(CheckedJobSchema.parse(job)).toEqual(job)
  })

  test('an expired job that never held an attestation has none of the keys', () => {
    const job = jobIn(4)
    expect(CheckedJobSchema.parse(job)).toEqual(job)
  })

  test('from Attested on, the keys come all together', () => {
    const { chatId: _, attestation: __, ...partial } = attestationKeys
    const result = CheckedJobSchema.safeParse({ ...jobIn(3), ...partial })
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['chatId', 'attestation'])
  })

  test('the REST responses enforce it: job detail and job lists', () => {
    const pendingWithKeys = { ...jobIn(0), ...attestationKeys }
    const detailSchema = marketContract.jobs.getJob.responses[200]
    expect(detailSchema.safeParse({ ...pendingWithKeys, events: [] }).success).toBe(false)
    expect(detailSchema.safeParse({ ...jobIn(0), events: [] }).success).toBe(true)
    expect(JobListSchema.safeParse({ count: 1, jobs: [pendingWithKeys], nextCursor: null }).success).toBe(false)
    expect(JobListSchema.safeParse({ count: 1, jobs: [jobIn(0)], nextCursor: null }).success).toBe(true)
  })

  test('the plain JobSchema stays a zod object (MCP output schemas need one) and does not enforce it', () => {
    expect(Object.keys(JobSchema.shape)).toContain('attestation')
    expect(JobSchema.safeParse({ ...jobIn(0), ...attestationKeys }).success).toBe(true)
  })
})

describe('JobSchema', () => {
  test('rejects a state outside 0..6 and a name outside the enum', () => {
    expect(JobSchema.safeParse({ ...jobIn(0), state: 7 }).success).toBe(false)
    expect(JobSchema.safeParse({ ...jobIn(0), stateName: 'Done' }).success).toBe(false)
  })

  test('rejects a non-checksummed address and a numeric amount', () => {
    expect(JobSchema.safeParse({ ...jobIn(0), buyer: buyer.toLowerCase() }).success).toBe(false)
    expect(JobSchema.safeParse({ ...jobIn(0), amount: 1000 }).success).toBe(false)
  })
})

describe('JobDetailSchema', () => {
  test('adds the on-chain history', () => {
    const detail = {
      ...jobIn(3),
      ...attestationKeys,
      events: [
        { event: 'JobCreated', blockNumber: '10', transactionHash: hash('01'), logIndex: 0, timestamp: '1778220000' },
        { event: 'JobAttested', blockNumber: '12', transactionHash: hash('02'), logIndex: 1, timestamp: '1778220024' },
        { event: 'JobSettled', blockNumber: '12', transactionHash: hash('02'), logIndex: 2, timestamp: '1778220024' },
      ],
    }
    expect(JobDetailSchema.parse(detail)).toEqual(detail)
  })

  test('rejects an event the escrow does not emit', () => {
    const event = { event: 'JobCancelled', blockNumber: '10', transactionHash: hash('01'), logIndex: 0, timestamp: '1' }
    expect(JobDetailSchema.safeParse({ ...jobIn(0), events: [event] }).success).toBe(false)
  })
})
