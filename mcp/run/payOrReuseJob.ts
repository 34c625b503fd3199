import { type Address, type Client, type Hash, keccak256 } from 'viem'
import type { Service } from '../../contract/service.ts'
import { CreateJobRejectedError, CreateJobRevertedError, RunCancelledError } from '../../errors/run.ts'
import { checkSpendLimit } from '../spend/checkSpendLimit.ts'
import { releaseSpend } from '../spend/releaseSpend.ts'
import { reserveSpend } from '../spend/reserveSpend.ts'
import type { MarketSource } from '../source/MarketSource.ts'
import type { ToolCallExtra } from '../tools/defineTool.ts'
import { confirmPayment } from './confirmPayment.ts'
import { findOpenJob, type FindOpenJobReturnType } from './findOpenJob.ts'
import { prepareCreateJob } from './prepareCreateJob.ts'
import type { RunSettings } from './readRunSettings.ts'
import { sendCreateJob } from './sendCreateJob.ts'
import { sendInOrder } from './sendInOrder.ts'

export type PayOrReuseJobParameters = {
  chain: MarketSource
  escrow: Address
  settings: RunSettings
  service: Service
  /** The prompt's bytes, as `createJob` carries them. */
  input: Uint8Array
  price: bigint
  timeoutSec: number
  log: (message: string) => void
  signal?: AbortSignal | undefined
  confirm?: ToolCallExtra['confirm']
}

export type PayOrReuseJobReturnType = {
  jobId: bigint
  transactionHash: Hash
  /** The buyer's job for this service and prompt that was already open, when one was: nothing was paid. */
  reused: Pick<NonNullable<FindOpenJobReturnType>, 'secondsLeft'> | null
}

/**
 * The job this `run` follows: the buyer's open one for the same service and prompt (a retry of a
 * call that timed out pays nothing), or a new one, paid once. The spend limit and the person's
 * confirmation come first; the payment waits its turn behind this process's other sends of the
 * account, and looks for an open job again once it has it, so a concurrent twin reuses it too.
 */
export async function payOrReuseJob(
  client: Client,
  { chain, escrow, settings, service, input, price, timeoutSec, log, signal, confirm }: PayOrReuseJobParameters,
): Promise<PayOrReuseJobReturnType> {
  const { account, spend } = settings
  const serviceId = BigInt(service.serviceId)
  const lookup = { chain, escrow, buyer: account.address, serviceId, inputCommitment: keccak256(input) }
  const open = await findOpenJob(client, lookup)
  if (open !== null) return { jobId: open.jobId, transactionHash: open.transactionHash, reused: open }

  const { request } = await prepareCreateJob(client, { account, escrow, serviceId, price, input, timeoutSec })
  const ledger = { path: spend.ledgerPath, limit: spend.limit, limitIsDefault: spend.limitIsDefault }
  const { spent } = await checkSpendLimit({ ...ledger, price })
  if (spend.confirmAbove !== null && price > spend.confirmAbove) {
    await confirmPayment(confirm, { service, price, threshold: spend.confirmAbove, spent, limit: spend.limit })
  }
  return sendInOrder(client, { address: account.address }, async ({ nextNonce, mined }) => {
    if (signal?.aborted) throw new RunCancelledError()
    const twin = await findOpenJob(client, lookup)
    if (twin !== null) return { jobId: twin.jobId, transactionHash: twin.transactionHash, reused: twin }
    const nonce = await nextNonce()
    const { id } = await reserveSpend({ ...ledger, price, serviceId, buyer: account.address })
    try {
      const sent = await sendCreateJob(client, { account, escrow, request: { ...request, nonce } })
      mined(nonce)
      return { ...sent, reused: null }
    } catch (error) {
      if (error instanceof CreateJobRevertedError) mined(nonce)
      // No escrow left the wallet: the reservation is taken back. An unconfirmed send stays counted.
      if (error instanceof CreateJobRejectedError || error instanceof CreateJobRevertedError) {
        await releaseSpend({ path: spend.ledgerPath, id }).catch((cause: unknown) =>
          log(`run: the spend ledger still counts ${price} wei that was not paid: ${cause instanceof Error ? cause.message : String(cause)}`),
        )
      }
      throw error
    }
  })
}
