import { type Address, type Client, type Hash, keccak256 } from 'viem'
import type { Service } from '../../contract/service.ts'
import { CreateJobRejectedError, CreateJobRevertedError, RunCancelledError } from '../../errors/run.ts'
import { checkSpendLimit } from '../spend/checkSpendLimit.ts'
import { markSpendSent } from '../spend/markSpendSent.ts'
import { releaseSpend } from '../spend/releaseSpend.ts'
import { reserveSpend } from '../spend/reserveSpend.ts'
import type { MarketSource } from '../source/MarketSource.ts'
import type { ToolCallExtra } from '../tools/defineTool.ts'
import { confirmPayment } from './confirmPayment.ts'
import { findOpenJob, type FindOpenJobReturnType } from './findOpenJob.ts'
import { prepareCreateJob } from './prepareCreateJob.ts'
import type { RunSettings } from './readRunSettings.ts'
import { readSecondsLeft } from './readSecondsLeft.ts'
import { resendUnconfirmed } from './resendUnconfirmed.ts'
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
  /**
   * Set when this call paid nothing: the buyer's job for this service and prompt was already
   * open, or an earlier run's unconfirmed createJob for it, sent again, created it.
   */
  reused: { how: 'open' | 'resent' } & Pick<NonNullable<FindOpenJobReturnType>, 'secondsLeft'> | null
}

/**
 * The job this `run` follows, first found first:
 * 1. the job of an earlier run's createJob for this service and prompt whose receipt it never
 *    read, sent again as signed (resendUnconfirmed): a retry after a lost receipt or a crash;
 * 2. the buyer's open job for the same service and prompt: a retry of a call that timed out;
 * 3. a new one, paid once. The spend limit and the person's confirmation come first; the payment
 *    waits its turn behind this process's other sends of the account, and looks for an open job
 *    again once it has it, so a concurrent twin reuses it too.
 * Only the third pays.
 */
export async function payOrReuseJob(
  client: Client,
  { chain, escrow, settings, service, input, price, timeoutSec, log, signal, confirm }: PayOrReuseJobParameters,
): Promise<PayOrReuseJobReturnType> {
  const { account, spend } = settings
  const serviceId = BigInt(service.serviceId)
  const lookup = { chain, escrow, buyer: account.address, serviceId, inputCommitment: keccak256(input) }
  const resent = await resendUnconfirmed(client, { escrow, ledgerPath: spend.ledgerPath, buyer: account.address, serviceId, inputCommitment: lookup.inputCommitment, log })
  if (resent !== null) {
    const secondsLeft = await readSecondsLeft(client, { chain, jobId: resent.jobId }).catch(() => timeoutSec)
    return { ...resent, reused: { how: 'resent', secondsLeft } }
  }
  const open = await findOpenJob(client, lookup)
  if (open !== null) return { jobId: open.jobId, transactionHash: open.transactionHash, reused: { how: 'open', secondsLeft: open.secondsLeft } }

  const { request } = await prepareCreateJob(client, { account, escrow, serviceId, price, input, timeoutSec })
  const ledger = { path: spend.ledgerPath, limit: spend.limit, limitIsDefault: spend.limitIsDefault }
  const { spent } = await checkSpendLimit({ ...ledger, price })
  if (spend.confirmAbove !== null && price > spend.confirmAbove) {
    await confirmPayment(confirm, { service, price, threshold: spend.confirmAbove, spent, limit: spend.limit })
  }
  return sendInOrder(client, { address: account.address }, async ({ nextNonce, mined }) => {
    if (signal?.aborted) throw new RunCancelledError()
    const twin = await findOpenJob(client, lookup)
    if (twin !== null) return { jobId: twin.jobId, transactionHash: twin.transactionHash, reused: { how: 'open', secondsLeft: twin.secondsLeft } }
    const nonce = await nextNonce()
    const serializedTransaction = await account.signTransaction({ ...request, nonce })
    const sending = { inputCommitment: lookup.inputCommitment, transaction: serializedTransaction }
    const { id } = await reserveSpend({ ...ledger, price, serviceId, buyer: account.address, sending })
    try {
      const sent = await sendCreateJob(client, { escrow, buyer: account.address, serializedTransaction })
      mined(nonce)
      await markSpendSent({ path: spend.ledgerPath, id }).catch((cause: unknown) =>
        log(`run: the spend ledger could not record that job ${sent.jobId} was created, so a later run of this service and prompt will follow it rather than pay: ${messageOf(cause)}`),
      )
      return { ...sent, reused: null }
    } catch (error) {
      if (error instanceof CreateJobRevertedError) mined(nonce)
      // No escrow left the wallet: the reservation is taken back. An unconfirmed send stays
      // counted, and stays in the ledger for a retry to send again.
      if (error instanceof CreateJobRejectedError || error instanceof CreateJobRevertedError) {
        await releaseSpend({ path: spend.ledgerPath, id }).catch((cause: unknown) =>
          log(`run: the spend ledger still counts ${price} wei that was not paid: ${messageOf(cause)}`),
        )
      }
      throw error
    }
  })
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause)
}
