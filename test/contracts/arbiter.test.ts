import { parseEther, parseEventLogs, type TransactionReceipt } from 'viem'
import { describe, expect, test } from 'vitest'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { expectRevert, useContractsFixture } from './contractsFixture.ts'
import { advanceTime, confirmed, createJob, gasCost, registerService, settleJob, stake } from './marketActions.ts'

const fixture = useContractsFixture()

const withdrawalDelay = 86_400

const arbiter = () => ({ address: fixture.deployment.arbiter, abi: arbiterAbi }) as const

const bondOf = () =>
  fixture.publicClient.readContract({ ...arbiter(), functionName: 'bondOf', args: [fixture.seller.account.address] })

async function requestWithdrawal(amount: bigint): Promise<TransactionReceipt> {
  return confirmed(
    fixture,
    await fixture.seller.writeContract({ ...arbiter(), functionName: 'requestWithdrawal', args: [amount] }),
  )
}

const withdraw = () => fixture.seller.writeContract({ ...arbiter(), functionName: 'withdraw' })

test('default: the arbiter is wired to the escrow, owned by the deployer, with a one-day delay', async () => {
  expect(await fixture.publicClient.readContract({ ...arbiter(), functionName: 'escrow' })).toBe(fixture.deployment.escrow)
  expect(await fixture.publicClient.readContract({ ...arbiter(), functionName: 'owner' })).toBe(fixture.owner.account.address)
  expect(await fixture.publicClient.readContract({ ...arbiter(), functionName: 'treasury' })).toBe(
    fixture.owner.account.address,
  )
  expect(await fixture.publicClient.readContract({ ...arbiter(), functionName: 'withdrawalDelay' })).toBe(
    BigInt(withdrawalDelay),
  )
})

describe('stake', () => {
  test('adds to the seller’s bond and emits Staked', async () => {
    await stake(fixture, { value: parseEther('1') })
    const receipt = await stake(fixture, { value: parseEther('0.5') })
    const [staked] = parseEventLogs({ abi: arbiterAbi, logs: receipt.logs, eventName: 'Staked' })
    expect(staked?.args).toEqual({ seller: fixture.seller.account.address, amount: parseEther('0.5'), bond: parseEther('1.5') })
    expect(await bondOf()).toBe(parseEther('1.5'))
  })

  test('reverts with ZeroValue for an empty stake', async () => {
    await expectRevert(fixture.seller.writeContract({ ...arbiter(), functionName: 'stake', value: 0n }), 'ZeroValue')
  })
})

describe('withdrawal', () => {
  test('pays out after the delay and not before', async () => {
    await stake(fixture, { value: parseEther('1') })
    const requested = await requestWithdrawal(parseEther('0.4'))
    const { timestamp } = await fixture.publicClient.getBlock({ blockNumber: requested.blockNumber })
    const [event] = parseEventLogs({ abi: arbiterAbi, logs: requested.logs, eventName: 'WithdrawalRequested' })
    expect(event?.args).toEqual({
      seller: fixture.seller.account.address,
      amount: parseEther('0.4'),
      availableAt: timestamp + BigInt(withdrawalDelay),
    })

    await expectRevert(withdraw(), 'WithdrawalLocked')
    await advanceTime(fixture, withdrawalDelay)
    const before = await fixture.publicClient.getBalance({ address: fixture.seller.account.address })
    const receipt = await confirmed(fixture, await withdraw())
    const [withdrawn] = parseEventLogs({ abi: arbiterAbi, logs: receipt.logs, eventName: 'Withdrawn' })
    expect(withdrawn?.args).toEqual({ seller: fixture.seller.account.address, amount: parseEther('0.4'), bond: parseEther('0.6') })
    expect(await bondOf()).toBe(parseEther('0.6'))
    expect(await fixture.publicClient.getBalance({ address: fixture.seller.account.address })).toBe(
      before + parseEther('0.4') - gasCost(receipt),
    )
    await expectRevert(withdraw(), 'NoWithdrawalRequested')
  })

  test('the bond stays slashable during the delay; the payout is capped at what is left', async () => {
    await stake(fixture, { value: parseEther('1') })
    await requestWithdrawal(parseEther('1'))
    const jobId = await createJob(fixture, { serviceId: await registerService(fixture) })
    await settleJob(fixture, { jobId })
    await confirmed(
      fixture,
      await fixture.stranger.writeContract({
        address: fixture.deployment.escrow,
        abi: escrowAbi,
        functionName: 'dispute',
        args: [jobId],
        value: parseEther('0.001'),
      }),
    )
    await confirmed(
      fixture,
      await fixture.owner.writeContract({ ...arbiter(), functionName: 'slash', args: [jobId, parseEther('0.3'), 0n, 0n] }),
    )
    await advanceTime(fixture, withdrawalDelay)
    const receipt = await confirmed(fixture, await withdraw())
    const [withdrawn] = parseEventLogs({ abi: arbiterAbi, logs: receipt.logs, eventName: 'Withdrawn' })
    expect(withdrawn?.args.amount).toBe(parseEther('0.7'))
    expect(await bondOf()).toBe(0n)
  })

  test('reverts with InsufficientBond above the bond and ZeroValue for zero', async () => {
    await stake(fixture, { value: parseEther('1') })
    await expectRevert(
      fixture.seller.writeContract({ ...arbiter(), functionName: 'requestWithdrawal', args: [parseEther('1') + 1n] }),
      'InsufficientBond',
    )
    await expectRevert(
      fixture.seller.writeContract({ ...arbiter(), functionName: 'requestWithdrawal', args: [0n] }),
      'ZeroValue',
    )
  })
})

describe('setEscrow', () => {
  test('is one-time and owner-only', async () => {
    await expectRevert(
      fixture.owner.writeContract({ ...arbiter(), functionName: 'setEscrow', args: [fixture.deployment.escrow] }),
      'EscrowAlreadySet',
    )
    await expectRevert(
      fixture.stranger.writeContract({ ...arbiter(), functionName: 'setEscrow', args: [fixture.deployment.escrow] }),
      'NotOwner',
    )
  })
})
