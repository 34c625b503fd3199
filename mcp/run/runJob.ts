import type { Address, Client } from 'viem'
import { getChainId } from 'viem/actions'
import type { Job } from '../../contract/job.ts'
import type { RunResult } from '../../contract/mcp.ts'
import {
  CreateJobRejectedError,
  CreateJobRevertedError,
  JobEndedUnsettledError,
  JobExpiredRefundedError,
  RefundFailedError,
  RunCancelledError,
  RunInterruptedError,
} from '../../errors/run.ts'
import { checkSpendLimit } from '../spend/checkSpendLimit.ts'
import { releaseSpend } from '../spend/releaseSpend.ts'
import { reserveSpend } from '../spend/reserveSpend.ts'
import type { ToolCallExtra, ToolProgress } from '../tools/defineTool.ts'
import type { MarketSource } from '../source/MarketSource.ts'
import { verifyJobAttestation } from '../verify/verifyJobAttestation.ts'
import { checkRunnable } from './checkRunnable.ts'
import { confirmPayment } from './confirmPayment.ts'
import { fetchJobOutput, type FetchJobOutputReturnType } from './fetchJobOutput.ts'
import { prepareCreateJob } from './prepareCreateJob.ts'
import { reclaimExpiredJob } from './reclaimExpiredJob.ts'
import { readRunSettings, type RunSettings } from './readRunSettings.ts'
import { sendCreateJob, type SendCreateJobReturnType } from './sendCreateJob.ts'
import { waitForJobOutcome, type WaitForJobOutcomeReturnType } from './waitForJobOutcome.ts'

export type RunJobParameters = {
  /** Must read the chain: price, status and signing key come from the registry itself. */
  chain: MarketSource
  escrow: Address
  explorerUrl: string | null
  env: Readonly<Record<string, string | undefined>>
  serviceId: bigint
  prompt: string
  /** Escrow timeout (a duration) and how long to wait for the seller. */
  timeoutSec: number
  log: (message: string) => void
  /** The caller's cancel: checked before paying, and it ends the wait for settlement. */
  signal?: AbortSignal | undefined
  /** Progress while waiting for settlement, when the caller asked for it. */
  reportProgress?: ((progress: ToolProgress) => Promise<void>) | undefined
  /** Asks the person, when the client can (see ToolCallExtra). */
  confirm?: ToolCallExtra['confirm']
}

export type RunJobReturnType = RunResult

/** How long past the job's timeout the wall clock may run before a refund is attempted anyway. */
const expiryGraceMs = 15_000

/**
 * Pays for one inference: checks everything that can be checked for free, creates the job once,
 * waits for the seller to settle it (reporting progress), verifies the attestation and fetches the
 * output. A job left unsettled at expiry is refunded and reported as an error naming the refund.
 * A cancel before payment spends nothing; after it, the wait stops and the error (and the log,
 * since a cancelled call's answer is never delivered) names the job left on chain.
 */
export async function runJob(
  client: Client,
  { chain, escrow, explorerUrl, env, serviceId, prompt, timeoutSec, log, signal, reportProgress, confirm }: RunJobParameters,
): Promise<RunJobReturnType> {
  const settings = readRunSettings({ env })
  const { account, spend } = settings
  const service = await chain.getService({ serviceId })
  const { input, price } = checkRunnable({ service, prompt, maxPrice: settings.maxPrice, allowed: spend })
  const { request } = await prepareCreateJob(client, { account, escrow, serviceId, price, input, timeoutSec })

  // The ledger is kept once the person asks for a limit or confirmations (which show today's spending).
  const counted = spend.limit !== null || spend.confirmAbove !== null
  if (counted) {
    const { spent } = await checkSpendLimit({ path: spend.ledgerPath, limit: spend.limit, price })
    if (spend.confirmAbove !== null && price > spend.confirmAbove) {
      await confirmPayment(confirm, { service, price, threshold: spend.confirmAbove, spent, limit: spend.limit })
    }
  }
  if (signal?.aborted) throw new RunCancelledError()
  const reservation = counted
    ? await reserveSpend({ path: spend.ledgerPath, limit: spend.limit, price, serviceId, buyer: account.address })
    : undefined
  let sent: SendCreateJobReturnType
  try {
    sent = await sendCreateJob(client, { account, escrow, request })
  } catch (error) {
    // No escrow left the wallet: the reservation is taken back. An unconfirmed send stays counted.
    if (reservation !== undefined && (error instanceof CreateJobRejectedError || error instanceof CreateJobRevertedError)) {
      await releaseSpend({ path: spend.ledgerPath, id: reservation.id }).catch((cause: unknown) =>
        log(`run: the spend ledger still counts ${price} wei that was not paid: ${cause instanceof Error ? cause.message : String(cause)}`),
      )
    }
    throw error
  }
  const { jobId, transactionHash } = sent
  log(`run: job ${jobId} created for service ${serviceId} in ${transactionHash}`)

  const startedAt = Date.now()
  const giveUpAt = startedAt + timeoutSec * 1_000 + expiryGraceMs
  // Seconds waited, out of timeoutSec: notifications are best effort, a failed one changes nothing.
  const progress = (message: string): void => {
    void reportProgress?.({ progress: (Date.now() - startedAt) / 1_000, total: timeoutSec, message }).catch(() => {})
  }
  try {
    progress(`Job ${jobId} created and paid in ${transactionHash}; waiting for the seller to settle it.`)
    const { job } = await settle(client, {
      chain,
      escrow,
      account,
      jobId,
      createJobHash: transactionHash,
      giveUpAt,
      pollIntervalMs: settings.pollIntervalMs,
      signal,
      onPending: () => progress(`Job ${jobId} is still Pending: waiting for the seller to settle it.`),
    })
    progress(`Job ${jobId} settled: verifying its attestation and fetching the output.`)
    const verification = await verifyJobAttestation(chain, { job, log })
    const output = await fetchOutput({ settings, jobId, job, escrow, chainId: client.chain?.id ?? (await getChainId(client)), log })
    return {
      jobId: jobId.toString(),
      verified: {
        ok: verification.ok,
        recoveredSigner: verification.recoveredSigner,
        expectedSigner: verification.expectedSigner,
      },
      txHashes: { createJob: transactionHash },
      createJobChainscan: explorerUrl === null ? null : `${explorerUrl}/tx/${transactionHash}`,
      service: { id: service.serviceId, modelId: service.modelId, signingAddress: verification.expectedSigner },
      buyer: account.address,
      ...output,
    }
  } catch (error) {
    if (signal?.aborted) {
      const cancelled = new RunCancelledError({ jobId, createJobHash: transactionHash })
      log(`run: ${cancelled.message}`)
      throw cancelled
    }
    // These already name the job and what happened to the money.
    if (error instanceof JobExpiredRefundedError || error instanceof RefundFailedError || error instanceof JobEndedUnsettledError) throw error
    throw new RunInterruptedError({ jobId, createJobHash: transactionHash, cause: error })
  }
}

type SettleParameters = {
  chain: MarketSource
  escrow: Address
  account: RunSettings['account']
  jobId: bigint
  createJobHash: string
  giveUpAt: number
  pollIntervalMs: number
  signal: AbortSignal | undefined
  onPending: () => void
}

/** Waits for settlement; at expiry reclaims the escrow and throws the refund. */
async function settle(
  client: Client,
  { chain, escrow, account, jobId, createJobHash, giveUpAt, pollIntervalMs, signal, onPending }: SettleParameters,
): Promise<Extract<WaitForJobOutcomeReturnType, { outcome: 'settled' }>> {
  for (;;) {
    const outcome = await waitForJobOutcome(client, { chain, jobId, pollIntervalMs, giveUpAt, signal, onPending })
    if (outcome.outcome === 'settled') return outcome
    let refundHash: string | null
    try {
      refundHash = await reclaimExpiredJob(client, { account, escrow, jobId })
    } catch (cause) {
      throw new RefundFailedError({ jobId, createJobHash, cause })
    }
    if (refundHash !== null) throw new JobExpiredRefundedError({ jobId, refundHash, createJobHash })
    // Not expired by the chain's clock yet, or settled at the last moment: look again.
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs))
  }
}

/** The checked output, or why there is none: the agent sees the reason, not only the log. */
async function fetchOutput({
  settings,
  jobId,
  job,
  escrow,
  chainId,
  log,
}: {
  settings: RunSettings
  jobId: bigint
  job: Pick<Job, 'seller' | 'outputRootHash'>
  escrow: Address
  chainId: number
  log: (message: string) => void
}): Promise<Pick<RunResult, 'output' | 'outputNote'>> {
  const fetched: FetchJobOutputReturnType =
    settings.outputUrl === null
      ? { output: null, note: 'MARKET_OUTPUT_URL is not set, so the output was not fetched.' }
      : job.outputRootHash === undefined
        ? { output: null, note: `Job "${jobId}" holds no outputRootHash on chain to check an output against.` }
        : await fetchJobOutput({
            urlTemplate: settings.outputUrl,
            jobId,
            account: settings.account,
            seller: job.seller,
            chainId,
            escrow,
            outputRootHash: job.outputRootHash,
          })
  if (fetched.note === null) return { output: fetched.output }
  log(`run: output of job ${jobId} omitted: ${fetched.note}`)
  return { outputNote: fetched.note }
}
