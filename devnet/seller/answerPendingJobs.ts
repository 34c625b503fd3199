import type { PublicClient } from 'viem'
import type { Deployment } from '../../config/deployment.ts'
import { type AnswerJobReturnType, answerJob } from './answerJob.ts'
import type { SellerBackend } from './backends/SellerBackend.ts'
import type { SellerStore } from './createSellerStore.ts'
import type { SellerWallets } from './createSellerWallets.ts'
import { describeFirstLine } from './describeFirstLine.ts'
import type { JobCreatedRecord } from './scanJobCreated.ts'

export type AnswerPendingJobsParameters = SellerWallets & {
  deployment: Pick<Deployment, 'registry' | 'escrow'>
  backend: SellerBackend
  store: SellerStore
  pending: Map<bigint, JobCreatedRecord>
  /** The last failure logged per job, so a lasting failure is logged once. */
  lastErrors: Map<bigint, string>
  isStopped: () => boolean
  log: (line: string) => void
}

/** Answers the queued jobs oldest first; a job leaves the queue once answered or no longer the seller's to answer. */
export async function answerPendingJobs(
  publicClient: PublicClient,
  { deployment, backend, store, pending, lastErrors, serviceWallets, signingAccounts, isStopped, log }: AnswerPendingJobsParameters,
): Promise<void> {
  const queue = [...pending.values()].sort((a, b) => (a.jobId < b.jobId ? -1 : 1))
  for (const job of queue) {
    if (isStopped()) return
    const walletClient = serviceWallets.get(job.serviceId)
    if (walletClient === undefined) {
      pending.delete(job.jobId)
      continue
    }
    try {
      const result = await answerJob(
        { publicClient, walletClient },
        {
          registry: deployment.registry,
          escrow: deployment.escrow,
          jobId: job.jobId,
          transactionHash: job.transactionHash,
          backend,
          signingAccounts: signingAccounts.get(job.serviceId) ?? [],
          store,
        },
      )
      pending.delete(job.jobId)
      lastErrors.delete(job.jobId)
      const line = describeResult(result)
      // Jobs found already settled, disputed or expired by the chain are the normal back-fill.
      if (line !== undefined) log(`job ${job.jobId} (service ${job.serviceId}) ${line}`)
    } catch (error) {
      // Logged once per distinct failure, not on every poll while it lasts.
      const message = describeFirstLine(error)
      if (lastErrors.get(job.jobId) !== message) log(`job ${job.jobId} not answered yet, will retry: ${message}`)
      lastErrors.set(job.jobId, message)
    }
  }
}

function describeResult(result: AnswerJobReturnType): string | undefined {
  switch (result.status) {
    case 'settled':
      return result.transactionHash === null ? 'settled' : `settled in ${result.transactionHash}`
    case 'expired':
      return `skipped: it expired at ${result.expiredAt} before it was answered`
    case 'otherSeller':
      return `skipped: it belongs to seller ${result.seller}`
    case 'unreadable':
      return `skipped, left Pending for its buyer to reclaim: ${result.reason}`
    case 'notPending':
      return undefined
  }
}
