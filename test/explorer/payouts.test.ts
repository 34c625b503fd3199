import { createPublicClient, http, isAddressEqual } from 'viem'
import type { Page } from 'playwright-core'
import { expect, inject, test } from 'vitest'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { saveScreenshot } from './support/saveScreenshot.ts'
import { toNativeAmount } from './support/toNativeAmount.ts'
import { useExplorer } from './support/useExplorer.ts'

const explorer = useExplorer()

/** The escrow's payout events, read with its own ABI: not through our readers, store or REST API. */
async function readPayouts() {
  const { rpcUrl, deployment } = inject('devnet')
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const at = { address: deployment.escrow, abi: escrowAbi, fromBlock: BigInt(deployment.deployBlock), strict: true } as const
  const [settled, expired, disputed] = await Promise.all([
    chain.getContractEvents({ ...at, eventName: 'JobSettled' }),
    chain.getContractEvents({ ...at, eventName: 'JobExpired' }),
    chain.getContractEvents({ ...at, eventName: 'JobDisputed' }),
  ])
  return { settled, expired, disputed, chain }
}

/** The arbiter's dispute events, read with its own ABI. */
async function readArbitration() {
  const { rpcUrl, deployment } = inject('devnet')
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const at = { address: deployment.arbiter, abi: arbiterAbi, fromBlock: BigInt(deployment.deployBlock), strict: true } as const
  const [opened, failed, slashed] = await Promise.all([
    chain.getContractEvents({ ...at, eventName: 'DisputeOpened' }),
    chain.getContractEvents({ ...at, eventName: 'DisputeFailed' }),
    chain.getContractEvents({ ...at, eventName: 'Slashed' }),
  ])
  return { opened, failed, slashed }
}

const amountOf = async (page: Page, field: string) => page.locator(`[data-field="${field}"]`).innerText()

async function openJob(jobId: bigint, name: string) {
  const page = await explorer.browser.context.newPage()
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`${explorer.server.baseUrl}/jobs/${jobId}`)
  await page.locator('[data-payout]').first().waitFor()
  await saveScreenshot(page, `payouts-${name}-desktop`)
  return page
}

test('default: a settled job shows what the JobSettled event paid the seller and kept as the fee, in its transaction', async () => {
  const { settled } = await readPayouts()
  const { args, transactionHash } = settled[0]!
  const page = await openJob(args.jobId, 'settled')
  expect(await page.locator('[data-field="paid-to-seller"]').innerText()).toBe(toNativeAmount(String(args.paidToSeller), 'ETH'))
  expect(await page.locator('[data-field="paid-fee"]').innerText()).toBe(toNativeAmount(String(args.protocolFee), 'ETH'))
  expect(await page.locator('[data-payout="seller"] [data-address]').getAttribute('data-address')).toBe(args.seller)
  expect(await page.locator('[data-payout="seller"] [title^="0x"]').last().getAttribute('title')).toBe(transactionHash)
  await page.close()
})

test('an expired job shows the refund of its JobExpired event, to the buyer', async () => {
  const { expired } = await readPayouts()
  const { args } = expired[0]!
  const page = await openJob(args.jobId, 'expired')
  expect(await page.locator('[data-field="refunded"]').innerText()).toBe(toNativeAmount(String(args.refunded), 'ETH'))
  expect(await page.locator('[data-payout="refund"] [data-address]').getAttribute('data-address')).toBe(args.buyer)
  await page.close()
})

test("a disputed job names the disputer, the sender of the dispute's transaction, and keeps the seller's payout", async () => {
  const { disputed, settled, chain } = await readPayouts()
  const { args, transactionHash } = disputed[0]!
  // The disputer the page names is the sender of the dispute's transaction.
  expect(isAddressEqual((await chain.getTransaction({ hash: transactionHash })).from, args.disputer)).toBe(true)
  const page = await openJob(args.jobId, 'disputed')
  expect(await page.locator('[data-payout="dispute"] [title^="0x"]').last().getAttribute('title')).toBe(transactionHash)
  expect(await page.locator('[data-field="disputer"] [data-address]').getAttribute('data-address')).toBe(args.disputer)
  const paid = settled.find((log) => log.args.jobId === args.jobId)!
  expect(await page.locator('[data-field="paid-to-seller"]').innerText()).toBe(toNativeAmount(String(paid.args.paidToSeller), 'ETH'))
  await page.close()
})

test("the seller page's paid total is the sum of the seller's JobSettled payouts, disputed jobs included", async () => {
  const { settled } = await readPayouts()
  const seller = settled[0]!.args.seller
  const paid = settled.filter(({ args }) => args.seller === seller).reduce((sum, { args }) => sum + args.paidToSeller, 0n)
  const page = await explorer.browser.context.newPage()
  await page.goto(`${explorer.server.baseUrl}/sellers/${seller}`)
  await page.locator('[data-stat="paid"] .value').waitFor()
  await saveScreenshot(page, 'payouts-seller-desktop')
  expect(await page.locator('[data-stat="paid"] .value').innerText()).toBe(toNativeAmount(String(paid), 'ETH'))
  await page.close()
})

test("a slashed job names the disputer and shows the bond and the slash's split, as the arbiter's events say", async () => {
  const { opened, slashed } = await readArbitration()
  // Job 9 of the seeded market finds the service's bond full; a later slash finds it empty.
  const slash = slashed.find(({ args }) => args.sellerBondSlashed > 0n)!
  const open = opened.find(({ args }) => args.jobId === slash.args.jobId)!
  const page = await openJob(slash.args.jobId, 'slashed')
  await page.locator('[data-payout="slash"]').waitFor()
  await saveScreenshot(page, 'payouts-slashed-desktop')
  expect(await page.locator('[data-field="disputer"] [data-address]').getAttribute('data-address')).toBe(open.args.disputer)
  expect(await amountOf(page, 'dispute-bond')).toBe(toNativeAmount(String(open.args.bond), 'ETH'))
  expect(await amountOf(page, 'slashed-bond')).toBe(toNativeAmount(String(slash.args.sellerBondSlashed), 'ETH'))
  expect(await amountOf(page, 'slash-to-disputer')).toBe(toNativeAmount(String(slash.args.toDisputer), 'ETH'))
  expect(await amountOf(page, 'slash-to-treasury')).toBe(toNativeAmount(String(slash.args.toTreasury), 'ETH'))
  expect(await amountOf(page, 'slash-burned')).toBe(toNativeAmount(String(slash.args.burned), 'ETH'))
  expect(await page.locator('[data-payout="slash"] [data-address]').getAttribute('data-address')).toBe(slash.args.disputer)
  expect(await page.locator('[data-payout="slash"] [title^="0x"]').last().getAttribute('title')).toBe(slash.transactionHash)
  await page.close()
})

test("a failed dispute shows how the disputer's bond was paid out, as DisputeFailed says", async () => {
  const { opened, failed } = await readArbitration()
  const { args, transactionHash } = failed[0]!
  const open = opened.find((log) => log.args.jobId === args.jobId)!
  const page = await openJob(args.jobId, 'dispute-failed')
  await page.locator('[data-payout="dispute-failed"]').waitFor()
  expect(await page.locator('[data-field="disputer"] [data-address]').getAttribute('data-address')).toBe(args.disputer)
  expect(await amountOf(page, 'dispute-bond')).toBe(toNativeAmount(String(open.args.bond), 'ETH'))
  expect(await amountOf(page, 'failed-to-seller')).toBe(toNativeAmount(String(args.toSeller), 'ETH'))
  expect(await amountOf(page, 'failed-to-treasury')).toBe(toNativeAmount(String(args.toTreasury), 'ETH'))
  expect(await page.locator('[data-payout="dispute-failed"] [title^="0x"]').last().getAttribute('title')).toBe(transactionHash)
  await page.close()
})
