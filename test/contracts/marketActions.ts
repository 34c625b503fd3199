import { type Address, type Hash, type Hex, keccak256, type LocalAccount, parseEther, stringToHex, type TransactionReceipt } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
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

/** The arbiter's MIN_BOND: 5 native tokens. */
export const minBond = parseEther('5')
/** The escrow's DISPUTE_BOND: 0.001 native token. */
export const minDisputeBond = parseEther('0.001')

/** Adds `value` (MIN_BOND by default) to the bond of `serviceId`, as its registrant (the fixture's seller). */
export async function stakeBond(
  fixture: ContractsFixture,
  { serviceId, value = minBond }: { serviceId: bigint; value?: bigint },
): Promise<TransactionReceipt> {
  return confirmed(
    fixture,
    await fixture.seller.writeContract({
      address: fixture.deployment.arbiter,
      abi: arbiterAbi,
      functionName: 'stakeBond',
      args: [serviceId],
      value,
    }),
  )
}

/** Disputes `jobId` as `disputer` (the fixture's buyer by default) with `value` (DISPUTE_BOND by default). */
export async function disputeJob(
  fixture: ContractsFixture,
  { jobId, disputer = fixture.buyer, value = minDisputeBond }: { jobId: bigint; disputer?: Wallet; value?: bigint },
): Promise<TransactionReceipt> {
  return confirmed(
    fixture,
    await disputer.writeContract({
      address: fixture.deployment.escrow,
      abi: escrowAbi,
      functionName: 'dispute',
      args: [jobId],
      value,
    }),
  )
}

/** Arbitrates the dispute on `jobId` as `caller` (anyone; the stranger by default). */
export async function arbitrate(
  fixture: ContractsFixture,
  { jobId, caller = fixture.stranger }: { jobId: bigint; caller?: Wallet },
): Promise<TransactionReceipt> {
  return confirmed(
    fixture,
    await caller.writeContract({ address: fixture.deployment.arbiter, abi: arbiterAbi, functionName: 'arbitrate', args: [jobId] }),
  )
}

/** A second signing key, for rotations. */
export const rotatedSigner = privateKeyToAccount(keccak256(stringToHex('test tee signing key #2')))

/** Rotates the signing key of `serviceId` to `newKey`, as its registrant. */
export async function rotateKey(
  fixture: ContractsFixture,
  { serviceId, newKey }: { serviceId: bigint; newKey: Address },
): Promise<TransactionReceipt> {
  return confirmed(
    fixture,
    await fixture.seller.writeContract({
      address: fixture.deployment.registry,
      abi: registryAbi,
      functionName: 'rotateSigningAddress',
      args: [serviceId, newKey],
    }),
  )
}

export type RegisterServiceParameters = {
  seller?: Wallet
  providerAddress?: Address
  signingAddress?: Address
  pricePerCall?: bigint
  modelId?: string
}

/** Registers a service as `seller` (the fixture's seller by default); returns its id. */
export async function registerService(
  fixture: ContractsFixture,
  {
    seller = fixture.seller,
    providerAddress = '0x00000000000000000000000000000000000000a1',
    signingAddress = fixture.signer.address,
    pricePerCall = price,
    modelId = 'gpt-4o',
  }: RegisterServiceParameters = {},
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
        providerAddress,
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

/** Submits an attestation for `jobId` signed by `signer` (the service's first key by default) as the fixture's seller. */
export async function settleJob(
  fixture: ContractsFixture,
  { jobId, chat = chatId(String(jobId)), signer = fixture.signer }: { jobId: bigint; chat?: Hex; signer?: LocalAccount },
): Promise<TransactionReceipt> {
  const text = attestationText()
  const signature = await signer.signMessage({ message: { raw: text } })
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
