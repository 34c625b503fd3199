import { type Address, type Hash, type Hex, keccak256, parseEther, stringToHex, type TransactionReceipt } from 'viem'
import { expect } from 'vitest'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import type { ContractsFixture, Wallet } from './contractsFixture.ts'

export const price = parseEther('0.01')
export const jobDuration = 3_600n
export const encryptedInput = stringToHex('sealed prompt bytes')

/** Waits for `hash` and asserts the transaction succeeded. */
export async function confirmed(fixture: ContractsFixture, hash: Hash): Promise<TransactionReceipt> {
  const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

/** What the sender paid in gas for the transaction of `receipt`, in wei. */
export function gasCost(receipt: TransactionReceipt): bigint {
  return receipt.gasUsed * receipt.effectiveGasPrice
}

/** Moves the node's clock forward by `seconds` and mines a block that carries the new time. */
export async function advanceTime(fixture: ContractsFixture, seconds: number): Promise<void> {
  await fixture.testClient.increaseTime({ seconds })
  await fixture.testClient.mine({ blocks: 1 })
}

/** Adds `value` to the fixture's seller's bond at the arbiter. */
export async function stake(fixture: ContractsFixture, { value }: { value: bigint }): Promise<TransactionReceipt> {
  return confirmed(
    fixture,
    await fixture.seller.writeContract({
      address: fixture.deployment.arbiter,
      abi: arbiterAbi,
      functionName: 'stake',
      value,
    }),
  )
}

export type RegisterServiceParameters = {
  seller?: Wallet
  signingAddress?: Address
  pricePerCall?: bigint
  modelId?: string
}

/** Registers a service as `seller` (the fixture's seller by default); returns its id. */
export async function registerService(
  fixture: ContractsFixture,
  { seller = fixture.seller, signingAddress = fixture.signer.address, pricePerCall = price, modelId = 'gpt-4o' }:
    RegisterServiceParameters = {},
): Promise<bigint> {
  const serviceId = await fixture.publicClient.readContract({
    address: fixture.deployment.registry,
    abi: registryAbi,
    functionName: 'nextServiceId',
  })
  await confirmed(
    fixture,
    await seller.writeContract({
      address: fixture.deployment.registry,
      abi: registryAbi,
      functionName: 'registerService',
      args: [
        keccak256(stringToHex('chat-completion')),
        modelId,
        '0x00000000000000000000000000000000000000a1',
        signingAddress,
        'api.openai.com',
        'centralized',
        true,
        pricePerCall,
        4_096n,
        stringToHex('ipfs://agent-metadata'),
      ],
    }),
  )
  return serviceId
}

/** Creates a job on `serviceId` as the fixture's buyer, paying `price`; returns its id. */
export async function createJob(
  fixture: ContractsFixture,
  { serviceId, value = price }: { serviceId: bigint; value?: bigint },
): Promise<bigint> {
  const jobId = await fixture.publicClient.readContract({
    address: fixture.deployment.escrow,
    abi: escrowAbi,
    functionName: 'nextJobId',
  })
  await confirmed(
    fixture,
    await fixture.buyer.writeContract({
      address: fixture.deployment.escrow,
      abi: escrowAbi,
      functionName: 'createJob',
      args: [serviceId, encryptedInput, jobDuration],
      value,
    }),
  )
  return jobId
}

/** A well-formed five-field attestation text, as the hex of its ASCII bytes. */
export function attestationText(tag = 'a'): Hex {
  const hash = (digit: string): string => digit.repeat(64)
  return stringToHex(`${hash(tag)}:${hash('b')}:centralized:api.openai.com:${hash('c')}`)
}

export function chatId(label: string): Hex {
  return keccak256(stringToHex(`chat:${label}`))
}

export const outputRootHash = keccak256(stringToHex('output'))

/** Submits a signed attestation for `jobId` as the fixture's seller and returns the receipt. */
export async function settleJob(
  fixture: ContractsFixture,
  { jobId, chat = chatId(String(jobId)) }: { jobId: bigint; chat?: Hex },
): Promise<TransactionReceipt> {
  const text = attestationText()
  const signature = await fixture.signer.signMessage({ message: { raw: text } })
  return confirmed(
    fixture,
    await fixture.seller.writeContract({
      address: fixture.deployment.escrow,
      abi: escrowAbi,
      functionName: 'submitAttestation',
      args: [jobId, outputRootHash, chat, text, signature],
    }),
  )
}
