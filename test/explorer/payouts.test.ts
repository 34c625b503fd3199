import { createPublicClient, http, isAddressEqual } from 'viem'
import { expect, inject, test } from 'vitest'
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

test("a disputed job names the dispute's transaction, whose sender is the disputer, and keeps the seller's payout", async () => {
  const { disputed, settled, chain } = await readPayouts()
  const { args, transactionHash } = disputed[0]!
  // What the page tells a reader to do: the sender of that transaction is the disputer.
  expect(isAddressEqual((await chain.getTransaction({ hash: transactionHash })).from, args.disputer)).toBe(true)
  const page = await openJob(args.jobId, 'disputed')
  expect(await page.locator('[data-payout="dispute"] [title^="0x"]').last().getAttribute('title')).toBe(transactionHash)
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
