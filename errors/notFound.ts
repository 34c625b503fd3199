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
