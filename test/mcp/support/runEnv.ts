import type { Hex } from 'viem'
import { seedAccounts } from '../../../devnet/seed/seedAccounts.ts'
import type { StartReferenceSellerReturnType } from '../../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../../devnet/startDevnet.ts'
import { devnetEnv } from './devnetEnv.ts'

export type RunEnvParameters = {
  key: Hex
  /** MARKET_SPEND_LEDGER: a file of the test's own. */
  ledger: string
  /** More settings (e.g. MARKET_REQUIRE_TEE for a service that cannot be verified). */
  extra?: Record<string, string> | undefined
}

/**
 * The stdio bin's environment for `run` on a test devnet: paying with `key`, polling every 100 ms,
 * fetching outputs of the seeded seller #1's jobs from the reference seller.
 */
export function runEnv(devnet: Pick<StartDevnetReturnType, 'rpcUrl' | 'deployment'>, seller: Pick<StartReferenceSellerReturnType, 'url'>, { key, ledger, extra = {} }: RunEnvParameters): Record<string, string> {
  return devnetEnv(devnet, {
    MARKET_PRIVATE_KEY: key,
    MARKET_POLL_INTERVAL_MS: '100',
    MARKET_OUTPUT_URL: `${seller.url}/outputs/{jobId}`,
    MARKET_OUTPUT_SELLER: seedAccounts.sellers[0].address,
    MARKET_SPEND_LEDGER: ledger,
    ...extra,
  })
}
