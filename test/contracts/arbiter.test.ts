import {
  type Abi,
  BaseError as ViemBaseError,
  decodeErrorResult,
  encodeDeployData,
  type Hex,
  parseEther,
  parseEventLogs,
  type PublicClient,
  RpcRequestError,
  zeroAddress,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { agentTokenAbi } from '../../chain/abi/agentToken.ts'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import arbiterArtifact from '../../devnet/artifacts/Arbiter.json' with { type: 'json' }
import { expectRevert, useContractsFixture } from './contractsFixture.ts'
import {
  advanceTime,
  arbitrate,
  confirmed,
  createJob,
  disputeJob,
  gasCost,
  minBond,
  minDisputeBond,
  price,
  registerService,
  rotateKey,
  rotatedSigner,
  settleJob,
  stakeBond,
} from './marketActions.ts'

const fixture = useContractsFixture()

const JobState = { Settled: 3, Disputed: 5, Slashed: 6 } as const
const withdrawalDelay = 7n * 24n * 3600n
const arbiter = () => ({ address: fixture.deployment.arbiter, abi: arbiterAbi }) as const
const read = ((parameters: Parameters<PublicClient['readContract']>[0]) =>
  fixture.publicClient.readContract(parameters)) as PublicClient['readContract']
const balanceOf = (address: `0x${string}`) => fixture.publicClient.getBalance({ address })
const getBond = (serviceId: bigint) => read({ ...arbiter(), functionName: 'getBond', args: [serviceId] })
const readJob = (jobId: bigint) =>
  read({ address: fixture.deployment.escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })

/** A registered service with a settled job, optionally with its bond staked. */
async function settledJob({ bond = minBond }: { bond?: bigint } = {}): Promise<{ serviceId: bigint; jobId: bigint }> {
  const serviceId = await registerService(fixture)
  if (bond > 0n) await stakeBond(fixture, { serviceId, value: bond })
  const jobId = await createJob(fixture, { serviceId })
  await settleJob(fixture, { jobId })
  return { serviceId, jobId }
}

test('default: constants and wiring', async () => {
  expect(await read({ ...arbiter(), functionName: 'MIN_BOND' })).toBe(parseEther('5'))
  expect(await read({ ...arbiter(), functionName: 'WITHDRAWAL_DELAY' })).toBe(withdrawalDelay)
  expect(await read({ ...arbiter(), functionName: 'escrow' })).toBe(fixture.deployment.escrow)
  expect(await read({ ...arbiter(), functionName: 'registry' })).toBe(fixture.deployment.registry)
  expect(await read({ ...arbiter(), functionName: 'verifier' })).toBe(fixture.deployment.attestationVerifier)
  expect(await read({ ...arbiter(), functionName: 'treasury' })).toBe(fixture.owner.account.address)
})

test('the constructor reverts with ZeroTreasury for a zero treasury', async () => {
  const data = encodeDeployData({
    abi: arbiterAbi,
    bytecode: arbiterArtifact.bytecode as Hex,
    args: [fixture.deployment.registry, fixture.deployment.escrow, fixture.deployment.attestationVerifier, zeroAddress],
  })
  const error = await fixture.publicClient.call({ account: fixture.owner.account, data }).then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(ViemBaseError)
  // Hardhat answers a reverted eth_call with { message, data } where data is the revert data.
  const rpcError = (error as ViemBaseError).walk((cause) => cause instanceof RpcRequestError)
  const revertData = (rpcError as RpcRequestError & { data: { data: Hex } }).data.data
  expect(decodeErrorResult({ abi: arbiterAbi as Abi, data: revertData }).errorName).toBe('ZeroTreasury')
})

describe('stakeBond', () => {
  test('adds to the service’s bond and emits BondStaked with the new total', async () => {
    const serviceId = await registerService(fixture)
    const first = await stakeBond(fixture, { serviceId })
    const [staked] = parseEventLogs({ abi: arbiterAbi, logs: first.logs, eventName: 'BondStaked' })
    expect(staked?.args).toEqual({ serviceId, staker: fixture.seller.account.address, newTotal: minBond })
    const second = await stakeBond(fixture, { serviceId, value: minBond + 1n })
    const [topUp] = parseEventLogs({ abi: arbiterAbi, logs: second.logs, eventName: 'BondStaked' })
    expect(topUp?.args.newTotal).toBe(2n * minBond + 1n)
    expect(await getBond(serviceId)).toEqual([2n * minBond + 1n, 0n])
    expect(await read({ ...arbiter(), functionName: 'bondPoster', args: [serviceId] })).toBe(fixture.seller.account.address)
    expect(await balanceOf(fixture.deployment.arbiter)).toBe(2n * minBond + 1n)
    // Bonds are per service: another service of the same seller has none.
    expect(await getBond(await registerService(fixture))).toEqual([0n, 0n])
  })

  test('reverts with BondTooSmall under MIN_BOND, top-ups included', async () => {
    const serviceId = await registerService(fixture)
    await expectRevert(stakeBond(fixture, { serviceId, value: minBond - 1n }), 'BondTooSmall')
    await stakeBond(fixture, { serviceId })
    await expectRevert(stakeBond(fixture, { serviceId, value: 1n }), 'BondTooSmall')
  })

  test('reverts with UnknownService for an id never registered', async () => {
    await expectRevert(stakeBond(fixture, { serviceId: 1n }), 'UnknownService')
    await registerService(fixture)
    await expectRevert(stakeBond(fixture, { serviceId: 0n }), 'UnknownService')
  })

  test('reverts with NotOriginalRegistrant for anyone but the registrant, the agent token’s new holder too', async () => {
    const serviceId = await registerService(fixture)
    const stakeAs = (wallet: typeof fixture.buyer) =>
      wallet.writeContract({ ...arbiter(), functionName: 'stakeBond', args: [serviceId], value: minBond })
    await expectRevert(stakeAs(fixture.stranger), 'NotOriginalRegistrant')
    const { inftTokenId } = await read({
      address: fixture.deployment.registry,
      abi: registryAbi,
      functionName: 'getService',
      args: [serviceId],
    })
    await confirmed(
      fixture,
      await fixture.seller.writeContract({
        address: fixture.deployment.agentToken,
        abi: agentTokenAbi,
        functionName: 'transferFrom',
        args: [fixture.seller.account.address, fixture.buyer.account.address, inftTokenId],
      }),
    )
    await expectRevert(stakeAs(fixture.buyer), 'NotOriginalRegistrant')
    await stakeBond(fixture, { serviceId })
  })
})

describe('withdrawal', () => {
  const requestWithdrawal = (serviceId: bigint, wallet = fixture.seller) =>
    wallet.writeContract({ ...arbiter(), functionName: 'requestWithdrawal', args: [serviceId] })
  const withdrawBond = (serviceId: bigint, wallet = fixture.seller) =>
    wallet.writeContract({ ...arbiter(), functionName: 'withdrawBond', args: [serviceId] })

  test('after a request and 7 days, the registrant takes the whole bond back', async () => {
    const serviceId = await registerService(fixture)
    await stakeBond(fixture, { serviceId })
    const requested = await confirmed(fixture, await requestWithdrawal(serviceId))
    const { timestamp } = await fixture.publicClient.getBlock({ blockNumber: requested.blockNumber })
    const [event] = parseEventLogs({ abi: arbiterAbi, logs: requested.logs, eventName: 'WithdrawalRequested' })
    expect(event?.args).toEqual({ serviceId, unlockAt: timestamp + withdrawalDelay })
    expect(await getBond(serviceId)).toEqual([minBond, timestamp + withdrawalDelay])
    expect(await read({ ...arbiter(), functionName: 'withdrawalUnlockAt', args: [serviceId] })).toBe(timestamp + withdrawalDelay)

    await expectRevert(withdrawBond(serviceId), 'WithdrawalDelayNotElapsed')
    await advanceTime(fixture, Number(withdrawalDelay))
    const sellerBefore = await balanceOf(fixture.seller.account.address)
    const withdrawn = await confirmed(fixture, await withdrawBond(serviceId))
    const [paid] = parseEventLogs({ abi: arbiterAbi, logs: withdrawn.logs, eventName: 'BondWithdrawn' })
    expect(paid?.args).toEqual({ serviceId, staker: fixture.seller.account.address, amount: minBond })
    expect(await balanceOf(fixture.seller.account.address)).toBe(sellerBefore + minBond - gasCost(withdrawn))
    expect(await getBond(serviceId)).toEqual([0n, 0n])
    expect(await read({ ...arbiter(), functionName: 'bondPoster', args: [serviceId] })).toBe(zeroAddress)
  })

  test('reverts with NotBondPoster, WithdrawalAlreadyRequested and WithdrawalNotRequested', async () => {
    const serviceId = await registerService(fixture)
    await expectRevert(requestWithdrawal(serviceId), 'NotBondPoster')
    await stakeBond(fixture, { serviceId })
    await expectRevert(requestWithdrawal(serviceId, fixture.stranger), 'NotBondPoster')
    await expectRevert(withdrawBond(serviceId, fixture.stranger), 'NotBondPoster')
    await expectRevert(withdrawBond(serviceId), 'WithdrawalNotRequested')
    await confirmed(fixture, await requestWithdrawal(serviceId))
    await expectRevert(requestWithdrawal(serviceId), 'WithdrawalAlreadyRequested')
  })

  test('reverts with OpenDisputesPending while a dispute on the service is open', async () => {
    const { serviceId, jobId } = await settledJob()
    await confirmed(fixture, await requestWithdrawal(serviceId))
    await disputeJob(fixture, { jobId })
    expect(await read({ ...arbiter(), functionName: 'openDisputesByService', args: [serviceId] })).toBe(1n)
    await advanceTime(fixture, Number(withdrawalDelay))
    await expectRevert(withdrawBond(serviceId), 'OpenDisputesPending')
    await arbitrate(fixture, { jobId })
    expect(await read({ ...arbiter(), functionName: 'openDisputesByService', args: [serviceId] })).toBe(0n)
    await confirmed(fixture, await withdrawBond(serviceId))
  })
})

describe('disputes', () => {
  test('openDispute reverts with EscrowOnly for anyone but the escrow', async () => {
    const { jobId } = await settledJob()
    await expectRevert(
      fixture.stranger.writeContract({
        ...arbiter(),
        functionName: 'openDispute',
        args: [jobId, fixture.stranger.account.address],
        value: minDisputeBond,
      }),
      'EscrowOnly',
    )
  })

  test('the escrow’s dispute opens one: the arbiter holds the bond and records it', async () => {
    const { serviceId, jobId } = await settledJob()
    const receipt = await disputeJob(fixture, { jobId, disputer: fixture.stranger, value: parseEther('0.01') })
    const { timestamp } = await fixture.publicClient.getBlock({ blockNumber: receipt.blockNumber })
    const [opened] = parseEventLogs({ abi: arbiterAbi, logs: receipt.logs, eventName: 'DisputeOpened' })
    expect(opened?.args).toEqual({ jobId, disputer: fixture.stranger.account.address, bond: parseEther('0.01') })
    expect(await read({ ...arbiter(), functionName: 'getDispute', args: [jobId] })).toEqual([
      fixture.stranger.account.address,
      parseEther('0.01'),
      timestamp,
      false,
    ])
    expect(await read({ ...arbiter(), functionName: 'openDisputesByService', args: [serviceId] })).toBe(1n)
    expect(await balanceOf(fixture.deployment.arbiter)).toBe(minBond + parseEther('0.01'))
  })

  test('arbitrate reverts with NoDisputeFound for a job without a dispute', async () => {
    const { jobId } = await settledJob()
    await expectRevert(arbitrate(fixture, { jobId }), 'NoDisputeFound')
  })
})

describe('arbitrate, attestation still valid: the dispute fails', () => {
  test('90 % of the disputer’s bond to the seller, 10 % to the treasury; the job stays Disputed for good', async () => {
    const { serviceId, jobId } = await settledJob()
    const disputerBond = parseEther('0.01')
    await disputeJob(fixture, { jobId, disputer: fixture.stranger, value: disputerBond })
    const sellerBefore = await balanceOf(fixture.seller.account.address)
    const treasuryBefore = await balanceOf(fixture.owner.account.address)

    // Anyone arbitrates: here the buyer, neither party to the dispute.
    const receipt = await arbitrate(fixture, { jobId, caller: fixture.buyer })
    const events = parseEventLogs({ abi: [...arbiterAbi, ...escrowAbi], logs: receipt.logs })
    expect(events.map((event) => event.eventName)).toEqual(['DisputeFailed'])
    expect(events[0]?.args).toEqual({
      jobId,
      disputer: fixture.stranger.account.address,
      toSeller: parseEther('0.009'),
      toTreasury: parseEther('0.001'),
    })
    expect(await balanceOf(fixture.seller.account.address)).toBe(sellerBefore + parseEther('0.009'))
    expect(await balanceOf(fixture.owner.account.address)).toBe(treasuryBefore + parseEther('0.001'))
    expect(await getBond(serviceId)).toEqual([minBond, 0n])
    expect((await readJob(jobId)).state).toBe(JobState.Disputed)
    expect(await read({ ...arbiter(), functionName: 'arbitrated', args: [jobId] })).toBe(true)
    expect((await read({ ...arbiter(), functionName: 'getDispute', args: [jobId] }))[3]).toBe(true)

    await expectRevert(arbitrate(fixture, { jobId }), 'AlreadyArbitrated')
    await expectRevert(disputeJob(fixture, { jobId }), 'NotSettled')
  })
})

describe('arbitrate, attestation no longer valid (key rotated): the bond is slashed', () => {
  test('70 % to the disputer (with their bond back), 20 % to the treasury, the rest burned; JobSlashed then Slashed', async () => {
    const { serviceId, jobId } = await settledJob({ bond: minBond + 1n })
    await rotateKey(fixture, { serviceId, newKey: rotatedSigner.address })
    await disputeJob(fixture, { jobId, disputer: fixture.stranger })
    const disputerBefore = await balanceOf(fixture.stranger.account.address)
    const treasuryBefore = await balanceOf(fixture.owner.account.address)
    const burnedBefore = await balanceOf(zeroAddress)

    const receipt = await arbitrate(fixture, { jobId, caller: fixture.buyer })
    const events = parseEventLogs({ abi: [...arbiterAbi, ...escrowAbi], logs: receipt.logs })
    expect(events.map((event) => event.eventName)).toEqual(['JobSlashed', 'Slashed'])
    // 5 ETH + 1 wei: the shares round down and the burned share takes the remainder.
    const shares = { toDisputer: parseEther('3.5'), toTreasury: parseEther('1'), burned: parseEther('0.5') + 1n }
    expect(events[0]?.args).toEqual({
      jobId,
      slashedSeller: fixture.seller.account.address,
      bondAmount: minBond + 1n,
      ...shares,
    })
    expect(events[1]?.args).toEqual({
      jobId,
      disputer: fixture.stranger.account.address,
      sellerBondSlashed: minBond + 1n,
      ...shares,
    })
    expect(await balanceOf(fixture.stranger.account.address)).toBe(disputerBefore + minDisputeBond + shares.toDisputer)
    expect(await balanceOf(fixture.owner.account.address)).toBe(treasuryBefore + shares.toTreasury)
    expect(await balanceOf(zeroAddress)).toBe(burnedBefore + shares.burned)
    expect(await getBond(serviceId)).toEqual([0n, 0n])
    expect(await balanceOf(fixture.deployment.arbiter)).toBe(0n)
    expect((await readJob(jobId)).state).toBe(JobState.Slashed)
  })

  test('a second slash finds the bond empty: an all-zero JobSlashed, the disputer’s bond returned', async () => {
    const serviceId = await registerService(fixture)
    await stakeBond(fixture, { serviceId })
    const first = await createJob(fixture, { serviceId })
    const second = await createJob(fixture, { serviceId })
    await settleJob(fixture, { jobId: first })
    await settleJob(fixture, { jobId: second })
    await rotateKey(fixture, { serviceId, newKey: rotatedSigner.address })
    await disputeJob(fixture, { jobId: first })
    await disputeJob(fixture, { jobId: second, disputer: fixture.stranger })
    await arbitrate(fixture, { jobId: first })

    const disputerBefore = await balanceOf(fixture.stranger.account.address)
    const receipt = await arbitrate(fixture, { jobId: second, caller: fixture.buyer })
    const [slashed] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'JobSlashed' })
    expect(slashed?.args).toEqual({
      jobId: second,
      slashedSeller: fixture.seller.account.address,
      bondAmount: 0n,
      toDisputer: 0n,
      toTreasury: 0n,
      burned: 0n,
    })
    expect(await balanceOf(fixture.stranger.account.address)).toBe(disputerBefore + minDisputeBond)
    expect((await readJob(second)).state).toBe(JobState.Slashed)
  })

  test('a job signed with the new key still fails its dispute', async () => {
    const serviceId = await registerService(fixture)
    await stakeBond(fixture, { serviceId })
    const jobId = await createJob(fixture, { serviceId, value: price })
    await rotateKey(fixture, { serviceId, newKey: rotatedSigner.address })
    await settleJob(fixture, { jobId, signer: rotatedSigner })
    await disputeJob(fixture, { jobId })
    const receipt = await arbitrate(fixture, { jobId })
    expect(parseEventLogs({ abi: arbiterAbi, logs: receipt.logs }).map((event) => event.eventName)).toEqual(['DisputeFailed'])
  })
})
