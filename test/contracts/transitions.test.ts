import { type Hex, keccak256, parseEther, parseEventLogs, type TransactionReceipt } from 'viem'
import { describe, expect, test } from 'vitest'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import escrowArtifact from '../../devnet/artifacts/JobEscrow.json' with { type: 'json' }
import { expectRevert, useContractsFixture } from './contractsFixture.ts'
import {
  advanceTime,
  attestationText,
  chatId,
  confirmed,
  createJob,
  encryptedInput,
  gasCost,
  jobDuration,
  outputRootHash,
  price,
  registerService,
  settleJob,
  stake,
} from './marketActions.ts'

const fixture = useContractsFixture()

const JobState = { Pending: 0, Sealed: 1, Attested: 2, Settled: 3, Expired: 4, Disputed: 5, Slashed: 6 } as const
const protocolFee = (price * 500n) / 10_000n
const disputeBond = parseEther('0.001')
const burnAddress = '0x000000000000000000000000000000000000dEaD'

const readJob = (jobId: bigint) =>
  fixture.publicClient.readContract({
    address: fixture.deployment.escrow,
    abi: escrowAbi,
    functionName: 'getJob',
    args: [jobId],
  })

const balanceOf = (address: `0x${string}`) => fixture.publicClient.getBalance({ address })

const expire = () => advanceTime(fixture, Number(jobDuration))

async function submitAttestation(
  jobId: bigint,
  { chat = chatId(String(jobId)), text = attestationText(), signature }: { chat?: Hex; text?: Hex; signature?: Hex } = {},
) {
  return fixture.seller.writeContract({
    address: fixture.deployment.escrow,
    abi: escrowAbi,
    functionName: 'submitAttestation',
    args: [jobId, outputRootHash, chat, text, signature ?? (await fixture.signer.signMessage({ message: { raw: text } }))],
  })
}

async function openDispute(jobId: bigint): Promise<TransactionReceipt> {
  return confirmed(
    fixture,
    await fixture.stranger.writeContract({
      address: fixture.deployment.escrow,
      abi: escrowAbi,
      functionName: 'dispute',
      args: [jobId],
      value: disputeBond,
    }),
  )
}

async function settledJob(): Promise<bigint> {
  const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
  await settleJob(fixture, { jobId })
  return jobId
}

test('default: job ids start at 1 and getJob reverts with UnknownJob', async () => {
  const nextJobId = await fixture.publicClient.readContract({
    address: fixture.deployment.escrow,
    abi: escrowAbi,
    functionName: 'nextJobId',
  })
  expect(nextJobId).toBe(1n)
  await expectRevert(readJob(1n), 'UnknownJob')
  await expectRevert(readJob(0n), 'UnknownJob')
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
    // The input bytes travel only in calldata: a seller reads them from the createJob transaction.
    const transaction = await fixture.publicClient.getTransaction({ hash })
    expect(transaction.input).toContain(encryptedInput.slice(2))
  })

  test('reverts with ZeroValue when nothing is paid', async () => {
    const serviceId = await registerService(fixture)
    await expectRevert(createJob(fixture, { serviceId, value: 0n }), 'ZeroValue')
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
  test('stores the attestation, pays seller and treasury, emits JobAttested then JobSettled in one tx', async () => {
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    const sellerBefore = await balanceOf(fixture.seller.account.address)
    const treasuryBefore = await balanceOf(fixture.owner.account.address)
    const text = attestationText()
    const signature = await fixture.signer.signMessage({ message: { raw: text } })
    const chat = chatId('settle')

    const receipt = await confirmed(fixture, await submitAttestation(jobId, { chat, text, signature }))

    const events = parseEventLogs({ abi: escrowAbi, logs: receipt.logs })
    expect(events.map((event) => event.eventName)).toEqual(['JobAttested', 'JobSettled'])
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
    expect(await balanceOf(fixture.owner.account.address)).toBe(treasuryBefore + protocolFee)
    expect(await balanceOf(fixture.deployment.escrow)).toBe(0n)
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

  test('reverts with Expired once the expiry has passed', async () => {
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    await expire()
    const [revertedJobId, expiredAt] = await expectRevert(submitAttestation(jobId), 'Expired')
    expect(revertedJobId).toBe(jobId)
    expect(expiredAt).toBe((await readJob(jobId)).timeout)
  })

  test('reverts with ChatIdReused when another job already used the chatId', async () => {
    const serviceId = await registerService(fixture)
    const first = await createJob(fixture, { serviceId })
    const second = await createJob(fixture, { serviceId })
    await settleJob(fixture, { jobId: first, chat: chatId('shared') })
    await expectRevert(submitAttestation(second, { chat: chatId('shared') }), 'ChatIdReused')
  })

  test('reverts with WrongState on a job already settled', async () => {
    const jobId = await settledJob()
    await expectRevert(submitAttestation(jobId, { chat: chatId('again') }), 'WrongState')
  })

  test('reverts with BadSignature for another key, other text, or a malformed signature', async () => {
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    const text = attestationText()
    const wrongKey = await fixture.stranger.account.signMessage!({ message: { raw: text } })
    const [recovered, recoverError, expected] = await expectRevert(
      submitAttestation(jobId, { text, signature: wrongKey }),
      'BadSignature',
    )
    expect(recovered).toBe(fixture.stranger.account.address)
    expect(recoverError).toBe(0)
    expect(expected).toBe(fixture.signer.address)

    const otherText = await fixture.signer.signMessage({ message: { raw: attestationText('d') } })
    await expectRevert(submitAttestation(jobId, { text, signature: otherText }), 'BadSignature')

    const signature = await fixture.signer.signMessage({ message: { raw: text } })
    const [, lengthError] = await expectRevert(
      submitAttestation(jobId, { text, signature: signature.slice(0, -2) as Hex }),
      'BadSignature',
    )
    expect(lengthError).toBe(2)
  })

  test('verifies against the service’s current signing address after a rotation', async () => {
    const serviceId = await registerService(fixture)
    const jobId = await createJob(fixture, { serviceId })
    const newKey = fixture.stranger.account
    await confirmed(
      fixture,
      await fixture.seller.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'rotateSigningAddress',
        args: [serviceId, newKey.address],
      }),
    )
    const text = attestationText()
    await expectRevert(submitAttestation(jobId, { text }), 'BadSignature')

    const receipt = await confirmed(
      fixture,
      await submitAttestation(jobId, { text, signature: await newKey.signMessage!({ message: { raw: text } }) }),
    )
    const [attested] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'JobAttested' })
    expect(attested?.args.recoveredSigner).toBe(newKey.address)
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

  test('reverts with WrongState for a settled job, even after its expiry', async () => {
    const jobId = await settledJob()
    await expire()
    await expectRevert(
      fixture.buyer.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'reclaimExpired',
        args: [jobId],
      }),
      'WrongState',
    )
  })
})

describe('dispute → Disputed', () => {
  test('anyone disputes a settled job with a bond; the escrow holds the bond', async () => {
    const jobId = await settledJob()
    const receipt = await openDispute(jobId)
    const [disputed] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'JobDisputed' })
    expect(disputed?.args).toEqual({ jobId, disputer: fixture.stranger.account.address })
    expect((await readJob(jobId)).state).toBe(JobState.Disputed)
    expect(await balanceOf(fixture.deployment.escrow)).toBe(disputeBond)
  })

  test('reverts with BondTooSmall under 0.001 native token', async () => {
    const jobId = await settledJob()
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'dispute',
        args: [jobId],
        value: disputeBond - 1n,
      }),
      'BondTooSmall',
    )
  })

  test('reverts with WrongState for a job that is not settled', async () => {
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'dispute',
        args: [jobId],
        value: disputeBond,
      }),
      'WrongState',
    )
  })

  test('reverts with UnknownJob for an id never created', async () => {
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'dispute',
        args: [5n],
        value: disputeBond,
      }),
      'UnknownJob',
    )
  })
})

describe('arbiter slash → Slashed', () => {
  test('takes the bond, pays disputer/treasury/burn, and the escrow emits JobSlashed with the amounts', async () => {
    await stake(fixture, { value: parseEther('1') })
    const jobId = await settledJob()
    await openDispute(jobId)
    const [toDisputer, toTreasury, burned] = [parseEther('0.05'), parseEther('0.03'), parseEther('0.02')]
    const disputerBefore = await balanceOf(fixture.stranger.account.address)
    const treasuryBefore = await balanceOf(fixture.owner.account.address)
    const burnBefore = await balanceOf(burnAddress)

    const receipt = await confirmed(
      fixture,
      await fixture.owner.writeContract({
        address: fixture.deployment.arbiter,
        abi: arbiterAbi,
        functionName: 'slash',
        args: [jobId, toDisputer, toTreasury, burned],
      }),
    )

    const [slashed] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'JobSlashed' })
    expect(slashed?.address).toBe(fixture.deployment.escrow.toLowerCase())
    expect(slashed?.args).toEqual({
      jobId,
      slashedSeller: fixture.seller.account.address,
      bondAmount: toDisputer + toTreasury + burned,
      toDisputer,
      toTreasury,
      burned,
    })
    expect((await readJob(jobId)).state).toBe(JobState.Slashed)
    const bond = await fixture.publicClient.readContract({
      address: fixture.deployment.arbiter,
      abi: arbiterAbi,
      functionName: 'bondOf',
      args: [fixture.seller.account.address],
    })
    expect(bond).toBe(parseEther('0.9'))
    // The disputer gets its share plus its dispute bond back.
    expect(await balanceOf(fixture.stranger.account.address)).toBe(disputerBefore + toDisputer + disputeBond)
    expect(await balanceOf(fixture.owner.account.address)).toBe(treasuryBefore + toTreasury - gasCost(receipt))
    expect(await balanceOf(burnAddress)).toBe(burnBefore + burned)
  })

  test('reverts with BondTooSmall when the seller’s bond cannot cover the slash', async () => {
    await stake(fixture, { value: parseEther('0.01') })
    const jobId = await settledJob()
    await openDispute(jobId)
    const [bond, required] = await expectRevert(
      fixture.owner.writeContract({
        address: fixture.deployment.arbiter,
        abi: arbiterAbi,
        functionName: 'slash',
        args: [jobId, parseEther('0.01'), 0n, 1n],
      }),
      'BondTooSmall',
    )
    expect(bond).toBe(parseEther('0.01'))
    expect(required).toBe(parseEther('0.01') + 1n)
    expect((await readJob(jobId)).state).toBe(JobState.Disputed)
  })

  test('reverts with WrongState (from the escrow) when the job is not disputed', async () => {
    await stake(fixture, { value: parseEther('1') })
    const jobId = await settledJob()
    await expectRevert(
      fixture.owner.writeContract({
        address: fixture.deployment.arbiter,
        abi: arbiterAbi,
        functionName: 'slash',
        args: [jobId, 1n, 0n, 0n],
      }),
      'WrongState',
    )
  })

  test('reverts with NotOwner when anyone but the arbiter owner slashes', async () => {
    await stake(fixture, { value: parseEther('1') })
    const jobId = await settledJob()
    await openDispute(jobId)
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.arbiter,
        abi: arbiterAbi,
        functionName: 'slash',
        args: [jobId, 1n, 0n, 0n],
      }),
      'NotOwner',
    )
  })
})

describe('arbiter rejectDispute → Settled', () => {
  test('returns the job to Settled and forfeits the dispute bond to the treasury', async () => {
    const jobId = await settledJob()
    await openDispute(jobId)
    const treasuryBefore = await balanceOf(fixture.owner.account.address)
    const receipt = await confirmed(
      fixture,
      await fixture.owner.writeContract({
        address: fixture.deployment.arbiter,
        abi: arbiterAbi,
        functionName: 'rejectDispute',
        args: [jobId],
      }),
    )
    const [rejected] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'DisputeRejected' })
    expect(rejected?.args).toEqual({ jobId, disputer: fixture.stranger.account.address, forfeitedBond: disputeBond })
    expect((await readJob(jobId)).state).toBe(JobState.Settled)
    expect(await balanceOf(fixture.owner.account.address)).toBe(treasuryBefore + disputeBond - gasCost(receipt))
  })

  test('reverts with NotOwner for anyone but the arbiter owner', async () => {
    const jobId = await settledJob()
    await openDispute(jobId)
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.arbiter,
        abi: arbiterAbi,
        functionName: 'rejectDispute',
        args: [jobId],
      }),
      'NotOwner',
    )
  })
})

describe('arbiter-only escrow functions', () => {
  test('markSlashed and resolveDispute revert with NotArbiter for any other caller', async () => {
    const jobId = await settledJob()
    await openDispute(jobId)
    for (const caller of [fixture.stranger, fixture.owner]) {
      await expectRevert(
        caller.writeContract({
          address: fixture.deployment.escrow,
          abi: escrowAbi,
          functionName: 'markSlashed',
          args: [jobId, fixture.seller.account.address, 1n, 1n, 0n, 0n],
        }),
        'NotArbiter',
      )
      await expectRevert(
        caller.writeContract({
          address: fixture.deployment.escrow,
          abi: escrowAbi,
          functionName: 'resolveDispute',
          args: [jobId],
        }),
        'NotArbiter',
      )
    }
  })

  test('markSlashed from the arbiter address emits the amounts it was given', async () => {
    // An escrow whose arbiter is a plain account, so markSlashed can be called directly.
    const deployHash = await fixture.owner.deployContract({
      abi: escrowAbi,
      bytecode: escrowArtifact.bytecode as Hex,
      args: [
        fixture.deployment.registry,
        fixture.deployment.attestationVerifier,
        fixture.stranger.account.address,
        fixture.owner.account.address,
      ],
    })
    const escrow = (await confirmed(fixture, deployHash)).contractAddress!
    const serviceId = await registerService(fixture)
    await confirmed(
      fixture,
      await fixture.buyer.writeContract({
        address: escrow,
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
        address: escrow,
        abi: escrowAbi,
        functionName: 'submitAttestation',
        args: [1n, outputRootHash, chatId('direct'), text, await fixture.signer.signMessage({ message: { raw: text } })],
      }),
    )
    await confirmed(
      fixture,
      await fixture.buyer.writeContract({ address: escrow, abi: escrowAbi, functionName: 'dispute', args: [1n], value: disputeBond }),
    )
    await expectRevert(
      fixture.stranger.writeContract({
        address: escrow,
        abi: escrowAbi,
        functionName: 'markSlashed',
        args: [1n, fixture.buyer.account.address, 4n, 1n, 2n, 1n],
      }),
      'SellerMismatch',
    )
    const receipt = await confirmed(
      fixture,
      await fixture.stranger.writeContract({
        address: escrow,
        abi: escrowAbi,
        functionName: 'markSlashed',
        args: [1n, fixture.seller.account.address, 4n, 1n, 2n, 1n],
      }),
    )
    const [slashed] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'JobSlashed' })
    expect(slashed?.args).toEqual({
      jobId: 1n,
      slashedSeller: fixture.seller.account.address,
      bondAmount: 4n,
      toDisputer: 1n,
      toTreasury: 2n,
      burned: 1n,
    })
  })
})
