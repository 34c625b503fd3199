import { describe, expect, test } from 'vitest'
import {
  JobIdArgsSchema,
  ListServicesResultSchema,
  RunArgsSchema,
  RunResultSchema,
  ServiceIdArgsSchema,
  VerifyAttestationResultSchema,
} from '../../contract/mcp.ts'
import { ServiceSchema } from '../../contract/service.ts'

const signer = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('id arguments', () => {
  test('default: a stringified positive integer', () => {
    expect(ServiceIdArgsSchema.parse({ serviceId: '1' })).toEqual({ serviceId: '1' })
    expect(JobIdArgsSchema.parse({ jobId: '42' })).toEqual({ jobId: '42' })
  })

  test.each([{ serviceId: '0' }, { serviceId: 'abc' }, { serviceId: '01' }, { serviceId: 1 }, {}])(
    'rejects %j',
    (args) => {
      expect(ServiceIdArgsSchema.safeParse(args).success).toBe(false)
    },
  )

  test('says what is expected', () => {
    expect(JobIdArgsSchema.safeParse({ jobId: '0' }).error?.issues[0]?.message).toBe(
      'Expected a stringified positive integer such as "1": digits only, no sign, no leading zeros.',
    )
  })
})

describe('run arguments', () => {
  test('timeoutSec defaults to 300', () => {
    expect(RunArgsSchema.parse({ serviceId: '1', prompt: 'hi' })).toEqual({
      serviceId: '1',
      prompt: 'hi',
      timeoutSec: 300,
    })
  })

  test.each([30, 86_400])('timeoutSec %i is accepted', (timeoutSec) => {
    expect(RunArgsSchema.parse({ serviceId: '1', prompt: 'hi', timeoutSec }).timeoutSec).toBe(timeoutSec)
  })

  test.each([29, 86_401, 30.5, '300'])('timeoutSec %j is rejected', (timeoutSec) => {
    expect(RunArgsSchema.safeParse({ serviceId: '1', prompt: 'hi', timeoutSec }).success).toBe(false)
  })

  test('an empty or missing prompt is rejected', () => {
    expect(RunArgsSchema.safeParse({ serviceId: '1', prompt: '' }).success).toBe(false)
    expect(RunArgsSchema.safeParse({ serviceId: '1' }).success).toBe(false)
  })
})

describe('results', () => {
  test('list_services: network, chainId, count, services in that order', () => {
    expect(Object.keys(ListServicesResultSchema.shape)).toEqual(['network', 'chainId', 'count', 'services'])
    expect(ListServicesResultSchema.shape.services.element).toBe(ServiceSchema)
  })

  test('verify_attestation: recoveredSigner may be null on a malformed signature', () => {
    const result = {
      jobId: '1',
      ok: false,
      recoveredSigner: null,
      expectedSigner: signer,
      note: 'The signature is not 65 bytes.',
    }
    expect(VerifyAttestationResultSchema.parse(result)).toEqual(result)
  })

  test('run: explorer link or null, output optional', () => {
    const result = {
      jobId: '3',
      verified: { ok: true, recoveredSigner: signer, expectedSigner: signer },
      txHashes: { createJob: `0x${'ab'.repeat(32)}` },
      createJobChainscan: null,
      service: { id: '1', modelId: 'gpt-4o-mini', signingAddress: signer },
      buyer: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    }
    expect(RunResultSchema.parse(result)).toEqual(result)
    const withLink = {
      ...result,
      createJobChainscan: `https://chainscan.0g.ai/tx/0x${'ab'.repeat(32)}`,
      output: 'hello',
    }
    expect(RunResultSchema.parse(withLink)).toEqual(withLink)
    expect(RunResultSchema.safeParse({ ...result, createJobChainscan: 'not a url' }).success).toBe(false)
  })
})
