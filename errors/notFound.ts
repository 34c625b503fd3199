import { BaseError } from './BaseError.ts'

export class ServiceNotFoundError extends BaseError {
  override name = 'ServiceNotFoundError'
  constructor({ serviceId }: { serviceId: bigint }) {
    super(`Service "${serviceId}" could not be found.`, { code: 'service_not_found' })
  }
}

export class JobNotFoundError extends BaseError {
  override name = 'JobNotFoundError'
  constructor({ jobId }: { jobId: bigint }) {
    super(`Job "${jobId}" could not be found.`, { code: 'job_not_found' })
  }
}

export class TransactionNotFoundError extends BaseError {
  override name = 'TransactionNotFoundError'
  constructor({ transactionHash }: { transactionHash: string }) {
    super(`Transaction "${transactionHash}" could not be found: the indexer holds no market event it emitted.`, {
      code: 'transaction_not_found',
    })
  }
}

export class TeeVerdictPendingError extends BaseError {
  override name = 'TeeVerdictPendingError'
  constructor({ serviceId }: { serviceId: bigint }) {
    super(`Service "${serviceId}" has no TEE verdict yet: the indexer checks each service soon after it is indexed. Try again shortly.`, {
      code: 'tee_verdict_pending',
    })
  }
}

export class TeeEvidenceNotFoundError extends BaseError {
  override name = 'TeeEvidenceNotFoundError'
  constructor({ serviceId, verdict }: { serviceId: bigint; verdict: string | undefined }) {
    const why = verdict === undefined ? 'it has not been checked yet' : `its last check fetched no quote (verdict "${verdict}")`
    super(`Service "${serviceId}" has no TEE evidence: ${why}.`, { code: 'tee_evidence_not_found' })
  }
}
