import type { Address, Client } from 'viem'
import { getChainId } from 'viem/actions'
import type { Job } from '../../contract/job.ts'
import type { RunResult } from '../../contract/mcp.ts'
import {
  JobEndedUnsettledError,
  JobExpiredRefundedError,
  RefundFailedError,
  RunCancelledError,
  RunInterruptedError,
} from '../../errors/run.ts'
import type { ToolCallExtra, ToolProgress } from '../tools/defineTool.ts'
import type { MarketSource } from '../source/MarketSource.ts'
import { verifyJobAttestation } from '../verify/verifyJobAttestation.ts'
import { checkRunnable } from './checkRunnable.ts'
import { checkTeeRequirement } from './checkTeeRequirement.ts'
import { fetchJobOutput, type FetchJobOutputReturnType } from './fetchJobOutput.ts'
import { payOrReuseJob } from './payOrReuseJob.ts'
import { reclaimExpiredJob } from './reclaimExpiredJob.ts'
import { readRunSettings, type RunSettings } from './readRunSettings.ts'
import { sendInOrder } from './sendInOrder.ts'
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
 * Pays for one inference: checks everything that can be checked for free, creates the job once
 * (or follows the buyer's open job for the same service and prompt, paying nothing), waits for
 * the seller to settle it (reporting progress), verifies the attestation and fetches the output.
 * A job left unsettled at expiry is refunded and reported as an error naming the refund.
 * A cancel before payment spends nothing; after it, the wait stops and the error (and the log,
 * since a cancelled call's answer is never delivered) names the job left on chain.
 */
export async function runJob(
  client: Client,
  { chain, escrow, explorerUrl, env, serviceId, prompt, timeoutSec, log, signal, reportProgress, confirm }: RunJobParameters,
): Promise<RunJobReturnType> {
  const settings = readRunSettings({ env })
  const { account } = settings
  const service = await chain.getService({ serviceId })
  const { input, price } = checkRunnable({ service, prompt, maxPrice: settings.maxPrice, maxPriceIsDefault: settings.maxPriceIsDefault, allowed: settings.spend })
  if (settings.requireTee !== 'off') {
    // Checked here from the provider's evidence (the chain source), not taken from an indexer.
    const verdict = await chain.getTeeVerdict({ serviceId })
    checkTeeRequirement({ verdict, required: settings.requireTee, isDefault: settings.requireTeeIsDefault })
  }
  const { jobId, transactionHash, reused } = await payOrReuseJob(client, { chain, escrow, settings, service, input, price, timeoutSec, log, signal, confirm })
  const reuseNote =
    reused === null
      ? undefined
      : reused.how === 'open'
        ? `Job "${jobId}" for this service and prompt was already open, created by this buyer in transaction "${transactionHash}" (an earlier run, perhaps one whose call timed out): this call paid nothing and followed that job.`
        : `Job "${jobId}" was created by an earlier run for this service and prompt whose receipt was never read; its transaction "${transactionHash}" was sent again as signed: this call paid nothing and followed that job.`
  log(reused === null ? `run: job ${jobId} created for service ${serviceId} in ${transactionHash}` : `run: ${reuseNote}`)

  const startedAt = Date.now()
  // A reused job expires when its creator asked, not timeoutSec from now.
  const waitSec = reused?.secondsLeft ?? timeoutSec
  const giveUpAt = startedAt + waitSec * 1_000 + expiryGraceMs
  // Seconds waited, out of waitSec: notifications are best effort, a failed one changes nothing.
  const progress = (message: string): void => {
    void reportProgress?.({ progress: (Date.now() - startedAt) / 1_000, total: waitSec, message }).catch(() => {})
  }
  try {
    progress(
      reused === null
        ? `Job ${jobId} created and paid in ${transactionHash}; waiting for the seller to settle it.`
        : `Job ${jobId} was ${reused.how === 'open' ? 'already open' : "created by an earlier run's transaction, sent again,"} for this prompt; nothing paid, waiting for the seller to settle it.`,
    )
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
      ...(reuseNote === undefined ? {} : { reuseNote }),
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
      refundHash = await sendInOrder(client, { address: account.address }, () => reclaimExpiredJob(client, { account, escrow, jobId, signal }))
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
    job.outputRootHash === undefined
      ? { output: null, note: `Job "${jobId}" holds no outputRootHash on chain to check an output against.` }
      : await fetchJobOutput({
          settings: settings.output,
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
