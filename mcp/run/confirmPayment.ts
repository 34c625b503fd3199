import { formatEther } from 'viem'
import { quoteUntrustedText } from '../../contract/quoteUntrustedText.ts'
import type { Service } from '../../contract/service.ts'
import { ConfirmationRefusedError, ConfirmationUnavailableError } from '../../errors/spend.ts'
import type { ToolCallExtra } from '../tools/defineTool.ts'

export type ConfirmPaymentParameters = {
  service: Service
  price: bigint
  /** `MARKET_CONFIRM_ABOVE_WEI`. */
  threshold: bigint
  /** Wei recorded in the ledger for the last 24 hours, and the limit it counts against. */
  spent: bigint
  limit: bigint | null
}

/**
 * Asks the person whether to pay, showing what an agent could not make look better: service,
 * model, seller, price and what was spent today. Goes on only on `accept`; a client that cannot
 * ask is refused with how to raise the threshold. The model and provider are the seller's words:
 * quoted with their newlines and bidi overrides escaped, they cannot write a line of their own
 * beside ours ("Seller: …") nor turn one around.
 */
export async function confirmPayment(
  confirm: ToolCallExtra['confirm'],
  { service, price, threshold, spent, limit }: ConfirmPaymentParameters,
): Promise<void> {
  if (confirm === undefined) throw new ConfirmationUnavailableError({ price, threshold })
  const message = [
    `An AI agent asks to pay ${price} wei (${formatEther(price)} native token) for one inference.`,
    `Service: ${service.serviceId}`,
    `Model (as the seller wrote it): ${quoteUntrustedText(service.modelId)}`,
    `Provider (as the seller wrote it): ${quoteUntrustedText(service.providerIdentity)}`,
    `Seller: ${service.seller}`,
    `Spent in the last 24 hours: ${spent} wei${limit === null ? '' : ` of the ${limit} wei limit`}`,
    `Accept to pay, decline to refuse. (Asked because the price is above MARKET_CONFIRM_ABOVE_WEI, ${threshold} wei.)`,
  ].join('\n')
  const answer = await confirm(message)
  if (answer !== 'accept') throw new ConfirmationRefusedError({ action: answer })
}
