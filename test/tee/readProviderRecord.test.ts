import { type Address, type Hex, createPublicClient, custom, decodeFunctionData, encodeFunctionResult, getAddress, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { inferenceServingAbi } from '../../chain/abi/inferenceServing.ts'
import { TeeProviderRecordError } from '../../errors/tee.ts'
import { readProviderRecord } from '../../tee/readProviderRecord.ts'

const contract: Address = '0x47340d900bdFec2BD393c626E12ea0656F938d84'
const provider: Address = getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906')
const signer: Address = getAddress('0x70997970c51812dc3a010c7d01b50e20d7e60a8f')

type Service = { url: string; additionalInfo: string; teeSignerAddress: Address; teeSignerAcknowledged: boolean }

/** A node answering eth_call for InferenceServing as the ABI encodes it. */
const clientOf = (service: Service | undefined) =>
  createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params: [{ data: Hex }] }) {
        if (method === 'eth_chainId') return '0x411d'
        if (method !== 'eth_call') throw new Error(`unexpected ${method}`)
        const { functionName } = decodeFunctionData({ abi: inferenceServingAbi, data: params[0].data })
        if (functionName === 'serviceExists') return encodeFunctionResult({ abi: inferenceServingAbi, functionName, result: service !== undefined })
        return encodeFunctionResult({
          abi: inferenceServingAbi,
          functionName: 'getService',
          result: { provider, serviceType: 'chatbot', inputPrice: 1n, outputPrice: 2n, updatedAt: 3n, model: 'deepseek-ai/DeepSeek-V3', verifiability: 'TeeML', ...service! },
        })
      },
    }),
  })
const read = (service: Service | undefined) => readProviderRecord(clientOf(service), { contract, provider })
const service: Service = { url: 'https://provider.example', additionalInfo: '{"TargetSeparated":true,"TargetTeeAddress":"0x1"}', teeSignerAddress: signer, teeSignerAcknowledged: true }

test('default: the record as the contract shape', async () => {
  expect(await read(service)).toEqual({ url: 'https://provider.example', model: 'deepseek-ai/DeepSeek-V3', verifiability: 'TeeML', targetSeparated: true, teeSignerAddress: signer, teeSignerAcknowledged: true })
})

test('no service: undefined; the zero signer: null', async () => {
  expect(await read(undefined)).toBeUndefined()
  expect((await read({ ...service, teeSignerAddress: zeroAddress }))?.teeSignerAddress).toBeNull()
})

describe('additionalInfo is anyone\'s text', () => {
  test.each([
    ['{"TargetSeparated":"true"}'],
    ['{"TargetSeparated":1}'],
    ['not json'],
    ['[true]'],
    [`{"TargetSeparated":true,"pad":"${'x'.repeat(20_000)}"}`],
  ])('%# is not separated', async (additionalInfo) => {
    expect((await read({ ...service, additionalInfo }))?.targetSeparated).toBe(false)
  })
})

test('a chain that does not answer is an error, not "no record"', async () => {
  const client = createPublicClient({ transport: custom({ request: async () => Promise.reject(new Error('connection refused')) }), })
  await expect(readProviderRecord(client, { contract, provider })).rejects.toBeInstanceOf(TeeProviderRecordError)
})
