import {
  BaseError as ViemBaseError,
  decodeErrorResult,
  encodeDeployData,
  getContractAddress,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  RpcRequestError,
  zeroAddress,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { reputationVaultAbi } from '../../chain/abi/reputationVault.ts'
import escrowArtifact from '../../devnet/artifacts/JobEscrow.json' with { type: 'json' }
import reputationVaultArtifact from '../../devnet/artifacts/ReputationVault.json' with { type: 'json' }
import { expectRevert, useContractsFixture } from './contractsFixture.ts'
import {
  advanceTime,
  attestationText,
  chatId,
  confirmed,
  createJob,
  disputeJob,
  encryptedInput,
  gasCost,
  jobDuration,
  minDisputeBond,
  outputRootHash,
  price,
  registerService,
  rotateKey,
  rotatedSigner,
  settleJob,
} from './marketActions.ts'

const fixture = useContractsFixture()

const JobState = { Pending: 0, Sealed: 1, Attested: 2, Settled: 3, Expired: 4, Disputed: 5, Slashed: 6 } as const
const protocolFee = (price * 500n) / 10_000n

const escrow = () => ({ address: fixture.deployment.escrow, abi: escrowAbi }) as const
const vault = () => ({ address: fixture.deployment.reputationVault, abi: reputationVaultAbi }) as const
const readJob = (jobId: bigint) => fixture.publicClient.readContract({ ...escrow(), functionName: 'getJob', args: [jobId] })
const readEscrow = (functionName: 'protocolFeesPending' | 'totalLockedEscrow') =>
  fixture.publicClient.readContract({ ...escrow(), functionName })
const jobEscrowBalance = (jobId: bigint) =>
  fixture.publicClient.readContract({ ...escrow(), functionName: 'jobEscrowBalance', args: [jobId] })

const balanceOf = (address: `0x${string}`) => fixture.publicClient.getBalance({ address })

const expire = () => advanceTime(fixture, Number(jobDuration))

async function submitAttestation(
  jobId: bigint,
  { chat = chatId(String(jobId)), text = attestationText(), signature }: { chat?: Hex; text?: Hex; signature?: Hex } = {},
) {
  return fixture.seller.writeContract({
    ...escrow(),
    functionName: 'submitAttestation',
    args: [jobId, outputRootHash, chat, text, signature ?? (await fixture.signer.signMessage({ message: { raw: text } }))],
  })
}

async function settledJob(): Promise<bigint> {
  const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
  await settleJob(fixture, { jobId })
  return jobId
}

/** Integer square root, as the reputation vault computes a buyer's weight. */
function sqrt(value: bigint): bigint {
  if (value < 2n) return value
  let root = value
  let next = (value + 1n) / 2n
  while (next < root) {
    root = next
    next = (value / next + next) / 2n
  }
  return root
}

test('default: job ids start at 1, getJob reverts with JobNotFound, the constants and addresses are the reference’s', async () => {
  const read = fixture.publicClient.readContract
  expect(await read({ ...escrow(), functionName: 'nextJobId' })).toBe(1n)
  await expectRevert(readJob(1n), 'JobNotFound')
  await expectRevert(readJob(0n), 'JobNotFound')
  expect(await read({ ...escrow(), functionName: 'DISPUTE_BOND' })).toBe(parseEther('0.001'))
  expect(await read({ ...escrow(), functionName: 'PROTOCOL_FEE_BPS' })).toBe(500)
  expect(await read({ ...escrow(), functionName: 'reputationVault' })).toBe(fixture.deployment.reputationVault)
  expect(await read({ ...vault(), functionName: 'escrow' })).toBe(fixture.deployment.escrow)
  expect(await readEscrow('protocolFeesPending')).toBe(0n)
  expect(await readEscrow('totalLockedEscrow')).toBe(0n)
  expect(await jobEscrowBalance(1n)).toBe(0n)
})

describe('createJob → Pending', () => {
  test('stores the job with an expiry timestamp, a 5% fee and the input commitment', async () => {
    const serviceId = await registerService(fixture)
    const hash = await fixture.buyer.writeContract({
      address: fixture.deployment.escrow,
      abi: escrowAbi,
      functionName: 'createJob',
      args: [serviceId, encryptedInput, jobDuration],
      value: price,
    })
    const receipt = await confirmed(fixture, hash)
    const { timestamp } = await fixture.publicClient.getBlock({ blockNumber: receipt.blockNumber })
    const inputCommitment = keccak256(encryptedInput)

    expect(await readJob(1n)).toEqual({
      serviceId,
      buyer: fixture.buyer.account.address,
      seller: fixture.seller.account.address,
      amount: price,
      protocolFee,
      createdAt: timestamp,
      timeout: timestamp + jobDuration,
      state: JobState.Pending,
      inputCommitment,
      outputRootHash: `0x${'00'.repeat(32)}`,
      chatId: `0x${'00'.repeat(32)}`,
      attestationText: '0x',
      attestationSignature: '0x',
    })
    const [created] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'JobCreated' })
    expect(created?.args).toEqual({
      jobId: 1n,
      serviceId,
      buyer: fixture.buyer.account.address,
      inputCommitment,
      amount: price,
      timeout: timestamp + jobDuration,
    })
    expect(await balanceOf(fixture.deployment.escrow)).toBe(price)
    expect(await readEscrow('totalLockedEscrow')).toBe(price)
    expect(await jobEscrowBalance(1n)).toBe(price)
    // The input bytes travel only in calldata: a seller reads them from the createJob transaction.
    const transaction = await fixture.publicClient.getTransaction({ hash })
    expect(transaction.input).toContain(encryptedInput.slice(2))
  })

  test('escrows whatever is sent above zero, not only the price', async () => {
    const serviceId = await registerService(fixture)
    const tiny = await createJob(fixture, { serviceId, value: 1n })
    const generous = await createJob(fixture, { serviceId, value: 3n * price + 7n })
    expect(await readJob(tiny)).toMatchObject({ amount: 1n, protocolFee: 0n })
    expect(await readJob(generous)).toMatchObject({ amount: 3n * price + 7n, protocolFee: ((3n * price + 7n) * 500n) / 10_000n })
    expect(await readEscrow('totalLockedEscrow')).toBe(3n * price + 8n)
  })

  test('reverts with ZeroAmount when nothing is paid', async () => {
    const serviceId = await registerService(fixture)
    await expectRevert(createJob(fixture, { serviceId, value: 0n }), 'ZeroAmount')
  })

  test('reverts with UnknownService for an id never registered', async () => {
    await registerService(fixture)
    await expectRevert(createJob(fixture, { serviceId: 2n }), 'UnknownService')
    await expectRevert(createJob(fixture, { serviceId: 0n }), 'UnknownService')
  })

  test('reverts with ServiceInactive once delisted or deactivated', async () => {
    const delisted = await registerService(fixture)
    await confirmed(
      fixture,
      await fixture.seller.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'delistService',
        args: [delisted],
      }),
    )
    await expectRevert(createJob(fixture, { serviceId: delisted }), 'ServiceInactive')

    const paused = await registerService(fixture)
    await confirmed(
      fixture,
      await fixture.seller.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'updateService',
        args: [paused, price, false],
      }),
    )
    await expectRevert(createJob(fixture, { serviceId: paused }), 'ServiceInactive')
  })

  test('reverts with ZeroTimeout for a zero duration', async () => {
    const serviceId = await registerService(fixture)
    await expectRevert(
      fixture.buyer.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'createJob',
        args: [serviceId, encryptedInput, 0n],
        value: price,
      }),
      'ZeroTimeout',
    )
  })
})

describe('submitAttestation → Settled', () => {
  test('stores the attestation, pays the seller, holds the fee, emits JobAttested then JobSettled in one tx', async () => {
    const serviceId = await registerService(fixture)
    const jobId = await createJob(fixture, { serviceId })
    const sellerBefore = await balanceOf(fixture.seller.account.address)
    const treasuryBefore = await balanceOf(fixture.owner.account.address)
    const text = attestationText()
    const signature = await fixture.signer.signMessage({ message: { raw: text } })
    const chat = chatId('settle')

    const receipt = await confirmed(fixture, await submitAttestation(jobId, { chat, text, signature }))

    const events = parseEventLogs({ abi: [...escrowAbi, ...reputationVaultAbi], logs: receipt.logs })
    expect(events.map((event) => event.eventName)).toEqual(['JobAttested', 'JobSettled', 'ReputationIncremented'])
    expect(events[0]?.args).toEqual({ jobId, outputRootHash, chatId: chat, recoveredSigner: fixture.signer.address })
    expect(events[1]?.args).toEqual({
      jobId,
      seller: fixture.seller.account.address,
      paidToSeller: price - protocolFee,
      protocolFee,
    })
    expect(await readJob(jobId)).toMatchObject({
      state: JobState.Settled,
      outputRootHash,
      chatId: chat,
      attestationText: text,
      attestationSignature: signature,
    })
    expect(await balanceOf(fixture.seller.account.address)).toBe(sellerBefore + price - protocolFee - gasCost(receipt))
    // The fee stays in the escrow until the treasury sweeps it.
    expect(await balanceOf(fixture.owner.account.address)).toBe(treasuryBefore)
    expect(await balanceOf(fixture.deployment.escrow)).toBe(protocolFee)
    expect(await readEscrow('protocolFeesPending')).toBe(protocolFee)
    expect(await readEscrow('totalLockedEscrow')).toBe(0n)
    expect(await jobEscrowBalance(jobId)).toBe(0n)
    expect(await fixture.publicClient.readContract({ ...escrow(), functionName: 'isChatIdUsed', args: [chat] })).toBe(true)
    expect(await fixture.publicClient.readContract({ ...escrow(), functionName: 'isChatIdUsed', args: [chatId('other')] })).toBe(false)

    // The reputation vault counted the job: the buyer's weight is the square root of all they paid.
    const { timestamp } = await fixture.publicClient.getBlock({ blockNumber: receipt.blockNumber })
    expect(events[2]?.args).toEqual({ serviceId, jobAmount: price, buyerWeight: sqrt(price), newWeightedScore: price * sqrt(price) })
    const read = fixture.publicClient.readContract
    expect(await read({ ...vault(), functionName: 'getReputation', args: [serviceId] })).toEqual({
      totalJobs: 1n,
      totalVolume: price,
      weightedScore: price * sqrt(price),
      firstJobAt: timestamp,
      lastJobAt: timestamp,
    })
    expect(await read({ ...vault(), functionName: 'getBuyerWeight', args: [fixture.buyer.account.address] })).toBe(sqrt(price))
    expect(await read({ ...vault(), functionName: 'getBuyerTotalVolume', args: [fixture.buyer.account.address] })).toBe(price)
  })

  test('the vault accumulates over settlements and weighs a buyer by everything they paid', async () => {
    const serviceId = await registerService(fixture)
    const first = await createJob(fixture, { serviceId })
    const second = await createJob(fixture, { serviceId, value: 2n * price })
    await settleJob(fixture, { jobId: first })
    await advanceTime(fixture, 10)
    const receipt = await settleJob(fixture, { jobId: second })
    const [, , incremented] = parseEventLogs({ abi: [...escrowAbi, ...reputationVaultAbi], logs: receipt.logs })
    const weight = sqrt(3n * price)
    expect(incremented?.args).toMatchObject({ jobAmount: 2n * price, buyerWeight: weight })
    const reputation = await fixture.publicClient.readContract({ ...vault(), functionName: 'getReputation', args: [serviceId] })
    expect(reputation).toMatchObject({ totalJobs: 2n, totalVolume: 3n * price, weightedScore: price * sqrt(price) + 2n * price * weight })
    expect(reputation.lastJobAt).toBeGreaterThan(reputation.firstJobAt)
  })

  test('the vault’s constructor reverts with ZeroEscrow for a zero escrow', async () => {
    const data = encodeDeployData({
      abi: reputationVaultAbi,
      bytecode: reputationVaultArtifact.bytecode as Hex,
      args: [zeroAddress],
    })
    const error = await fixture.publicClient.call({ account: fixture.owner.account, data }).then(
      () => undefined,
      (reason: unknown) => reason,
    )
    expect(error).toBeInstanceOf(ViemBaseError)
    // Hardhat answers a reverted eth_call with { message, data } where data is the revert data.
    const rpcError = (error as ViemBaseError).walk((cause) => cause instanceof RpcRequestError)
    const revertData = (rpcError as RpcRequestError & { data: { data: Hex } }).data.data
    expect(decodeErrorResult({ abi: reputationVaultAbi, data: revertData }).errorName).toBe('ZeroEscrow')
  })

  test('recordSettlement reverts with EscrowOnly for anyone but the escrow', async () => {
    await expectRevert(
      fixture.stranger.writeContract({
        ...vault(),
        functionName: 'recordSettlement',
        args: [1n, fixture.stranger.account.address, parseEther('1000')],
      }),
      'EscrowOnly',
    )
  })

  test('reverts with NotSeller for anyone but the job’s seller', async () => {
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    const text = attestationText()
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'submitAttestation',
        args: [jobId, outputRootHash, chatId('x'), text, await fixture.signer.signMessage({ message: { raw: text } })],
      }),
      'NotSeller',
    )
  })

  test('reverts with AlreadyExpired once the expiry has passed', async () => {
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    await expire()
    await expectRevert(submitAttestation(jobId), 'AlreadyExpired')
  })

  test('reverts with ChatIdReused when another job already used the chatId', async () => {
    const serviceId = await registerService(fixture)
    const first = await createJob(fixture, { serviceId })
    const second = await createJob(fixture, { serviceId })
    await settleJob(fixture, { jobId: first, chat: chatId('shared') })
    await expectRevert(submitAttestation(second, { chat: chatId('shared') }), 'ChatIdReused')
  })

  test('reverts with NotPending on a job already settled', async () => {
    const jobId = await settledJob()
    await expectRevert(submitAttestation(jobId, { chat: chatId('again') }), 'NotPending')
  })

  test('reverts with AttestationInvalid for another key or other text; a malformed signature reverts in the verifier', async () => {
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    const text = attestationText()
    const wrongKey = await rotatedSigner.signMessage({ message: { raw: text } })
    await expectRevert(submitAttestation(jobId, { text, signature: wrongKey }), 'AttestationInvalid')

    const otherText = await fixture.signer.signMessage({ message: { raw: attestationText('d') } })
    await expectRevert(submitAttestation(jobId, { text, signature: otherText }), 'AttestationInvalid')

    // As on the reference, verify() reverts rather than answering false: the escrow lets it through.
    const signature = await fixture.signer.signMessage({ message: { raw: text } })
    await expectRevert(
      submitAttestation(jobId, { text, signature: signature.slice(0, -2) as Hex }),
      'ECDSAInvalidSignatureLength',
    )
  })

  test('verifies against the service’s current signing address after a rotation', async () => {
    const serviceId = await registerService(fixture)
    const jobId = await createJob(fixture, { serviceId })
    await rotateKey(fixture, { serviceId, newKey: rotatedSigner.address })
    const text = attestationText()
    await expectRevert(submitAttestation(jobId, { text }), 'AttestationInvalid')

    const receipt = await confirmed(
      fixture,
      await submitAttestation(jobId, { text, signature: await rotatedSigner.signMessage({ message: { raw: text } }) }),
    )
    const [attested] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'JobAttested' })
    expect(attested?.args.recoveredSigner).toBe(rotatedSigner.address)
  })
})

describe('reclaimExpired → Expired', () => {
  test('refunds the buyer the full amount after expiry and emits JobExpired', async () => {
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    await expire()
    const buyerBefore = await balanceOf(fixture.buyer.account.address)
    const receipt = await confirmed(
      fixture,
      await fixture.buyer.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'reclaimExpired',
        args: [jobId],
      }),
    )
    const [expired] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'JobExpired' })
    expect(expired?.args).toEqual({ jobId, buyer: fixture.buyer.account.address, refunded: price })
    expect((await readJob(jobId)).state).toBe(JobState.Expired)
    expect(await balanceOf(fixture.buyer.account.address)).toBe(buyerBefore + price - gasCost(receipt))
    expect(await readEscrow('totalLockedEscrow')).toBe(0n)
    expect(await jobEscrowBalance(jobId)).toBe(0n)
  })

  test('reverts with NotExpired before the expiry', async () => {
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    await expectRevert(
      fixture.buyer.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'reclaimExpired',
        args: [jobId],
      }),
      'NotExpired',
    )
  })

  test('reverts with NotBuyer for anyone but the buyer', async () => {
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    await expire()
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'reclaimExpired',
        args: [jobId],
      }),
      'NotBuyer',
    )
  })

  test('reverts with NotPending for a settled job, even after its expiry', async () => {
    const jobId = await settledJob()
    await expire()
    await expectRevert(
      fixture.buyer.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'reclaimExpired',
        args: [jobId],
      }),
      'NotPending',
    )
  })
})

describe('sweepFees', () => {
  const sweep = (wallet = fixture.owner) => wallet.writeContract({ ...escrow(), functionName: 'sweepFees' })

  test('the treasury takes the fees held from settlements', async () => {
    await settledJob()
    await settledJob()
    const treasuryBefore = await balanceOf(fixture.owner.account.address)
    const receipt = await confirmed(fixture, await sweep())
    expect(await balanceOf(fixture.owner.account.address)).toBe(treasuryBefore + 2n * protocolFee - gasCost(receipt))
    expect(await readEscrow('protocolFeesPending')).toBe(0n)
    expect(await balanceOf(fixture.deployment.escrow)).toBe(0n)
  })

  test('reverts with TreasuryOnly for anyone else and NoFeesToSweep when none are held', async () => {
    await expectRevert(sweep(), 'NoFeesToSweep')
    await settledJob()
    await expectRevert(sweep(fixture.stranger), 'TreasuryOnly')
  })
})

describe('dispute → Disputed', () => {
  test('anyone disputes a settled job with a bond; the escrow forwards it to the arbiter', async () => {
    const jobId = await settledJob()
    const escrowBefore = await balanceOf(fixture.deployment.escrow)
    const value = parseEther('0.002')
    const receipt = await disputeJob(fixture, { jobId, disputer: fixture.stranger, value })
    const events = parseEventLogs({ abi: [...escrowAbi, ...arbiterAbi], logs: receipt.logs })
    expect(events.map((event) => [event.address.toLowerCase(), event.eventName])).toEqual([
      [fixture.deployment.escrow.toLowerCase(), 'JobDisputed'],
      [fixture.deployment.arbiter.toLowerCase(), 'DisputeOpened'],
    ])
    expect(events[0]?.args).toEqual({ jobId, disputer: fixture.stranger.account.address })
    expect(events[1]?.args).toEqual({ jobId, disputer: fixture.stranger.account.address, bond: value })
    expect((await readJob(jobId)).state).toBe(JobState.Disputed)
    expect(await balanceOf(fixture.deployment.escrow)).toBe(escrowBefore)
    expect(await balanceOf(fixture.deployment.arbiter)).toBe(value)
  })

  test('reverts with BondTooSmall under DISPUTE_BOND', async () => {
    const jobId = await settledJob()
    await expectRevert(disputeJob(fixture, { jobId, value: minDisputeBond - 1n }), 'BondTooSmall')
    await expectRevert(disputeJob(fixture, { jobId, value: 0n }), 'BondTooSmall')
  })

  test('reverts with NotSettled for a pending job and for one already disputed', async () => {
    const pending = await createJob(fixture, { serviceId: await registerService(fixture) })
    await expectRevert(disputeJob(fixture, { jobId: pending }), 'NotSettled')
    const settled = await settledJob()
    await disputeJob(fixture, { jobId: settled })
    await expectRevert(disputeJob(fixture, { jobId: settled }), 'NotSettled')
  })

  test('reverts with JobNotFound for an id never created', async () => {
    await expectRevert(disputeJob(fixture, { jobId: 5n }), 'JobNotFound')
  })
})

describe('markSlashed', () => {
  test('reverts with ArbiterOnly for any other caller', async () => {
    const jobId = await settledJob()
    await disputeJob(fixture, { jobId })
    for (const caller of [fixture.stranger, fixture.owner]) {
      await expectRevert(
        caller.writeContract({
          ...escrow(),
          functionName: 'markSlashed',
          args: [jobId, fixture.seller.account.address, 1n, 1n, 0n, 0n],
        }),
        'ArbiterOnly',
      )
    }
  })

  test('reverts with NotDisputed and JobNotFound, even for the arbiter', async () => {
    // An escrow (and its vault) whose arbiter is a plain account, so markSlashed can be called directly.
    const nonce = await fixture.publicClient.getTransactionCount({ address: fixture.owner.account.address })
    const escrowAddress = getContractAddress({ from: fixture.owner.account.address, nonce: BigInt(nonce + 1) })
    const vaultHash = await fixture.owner.deployContract({
      abi: reputationVaultAbi,
      bytecode: reputationVaultArtifact.bytecode as Hex,
      args: [escrowAddress],
      nonce,
    })
    const escrowHash = await fixture.owner.deployContract({
      abi: escrowAbi,
      bytecode: escrowArtifact.bytecode as Hex,
      args: [
        fixture.deployment.registry,
        fixture.deployment.attestationVerifier,
        (await confirmed(fixture, vaultHash)).contractAddress!,
        fixture.stranger.account.address,
        fixture.owner.account.address,
      ],
      nonce: nonce + 1,
    })
    expect((await confirmed(fixture, escrowHash)).contractAddress).toBe(escrowAddress.toLowerCase())
    const serviceId = await registerService(fixture)
    await confirmed(
      fixture,
      await fixture.buyer.writeContract({
        address: escrowAddress,
        abi: escrowAbi,
        functionName: 'createJob',
        args: [serviceId, encryptedInput, jobDuration],
        value: price,
      }),
    )
    const text = attestationText()
    await confirmed(
      fixture,
      await fixture.seller.writeContract({
        address: escrowAddress,
        abi: escrowAbi,
        functionName: 'submitAttestation',
        args: [1n, outputRootHash, chatId('direct'), text, await fixture.signer.signMessage({ message: { raw: text } })],
      }),
    )
    const markSlashed = (jobId: bigint) =>
      fixture.stranger.writeContract({
        address: escrowAddress,
        abi: escrowAbi,
        functionName: 'markSlashed',
        args: [jobId, fixture.seller.account.address, 4n, 1n, 2n, 1n],
      })
    await expectRevert(markSlashed(1n), 'NotDisputed')
    await expectRevert(markSlashed(2n), 'JobNotFound')
  })
})
