import { parseEther } from 'viem'

/**
 * What `run` may spend when the person set nothing but a key: an agent reading seller-written text
 * can be told to pay, so the wallet is never open without bounds. Each is raised, or turned off
 * with `none`, only in the server's environment.
 */
export const defaultSpendLimits = {
  /**
   * `MARKET_MAX_PRICE_WEI` unset: 0.01 native token a call. Above the dearest service we know of
   * (0.004 on the devnet's plan, modelled on the reference market) with room, so ordinary services
   * run, while a seller who lists at a price meant to drain a wallet is refused.
   */
  maxPriceWei: parseEther('0.01'),
  /**
   * `MARKET_SPEND_LIMIT_WEI` unset: 0.05 native token in any 24 hours. Five calls at the cap, a dozen
   * or more at the devnet's prices: enough to try services for a day, while an agent looping on
   * a prompt, or told to pay again and again, loses at most this much a day.
   */
  spendLimitWei: parseEther('0.05'),
} as const
