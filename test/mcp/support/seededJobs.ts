import { type JobOutcome, plannedJobs, rotatedServiceIndex } from '../../../devnet/seed/marketPlan.ts'

/** Seeded job ids (position + 1 on a fresh devnet) by what the seed did to them. */
function jobIdWhere(predicate: (job: (typeof plannedJobs)[number]) => boolean): string {
  const index = plannedJobs.findIndex(predicate)
  if (index === -1) throw new Error('the seed plan has no such job')
  return String(index + 1)
}

const withOutcome = (outcome: JobOutcome) => (job: (typeof plannedJobs)[number]) => job.outcome === outcome

export const seededJobs = {
  /** Settled, signed by its service's current key. */
  settled: jobIdWhere((job) => job.outcome === 'settled' && job.serviceIndex !== rotatedServiceIndex),
  /** Settled with the rotated service's first key, before the rotation (and never disputed). */
  signedBeforeRotation: jobIdWhere((job) => job.outcome === 'settled' && job.serviceIndex === rotatedServiceIndex),
  /** Settled with the rotated service's second key. */
  signedAfterRotation: jobIdWhere(withOutcome('settledAfterRotation')),
  pending: jobIdWhere(withOutcome('pending')),
  expired: jobIdWhere(withOutcome('expired')),
  /** Disputed, and nobody has arbitrated yet. */
  disputed: jobIdWhere(withOutcome('disputed')),
  /** Disputed and arbitrated while its attestation verified: the dispute failed, the job stays Disputed. */
  disputeFailed: jobIdWhere(withOutcome('disputeFailed')),
  /** Signed with the rotated service's first key, then disputed and arbitrated after the rotation. */
  slashed: jobIdWhere(withOutcome('slashed')),
  count: plannedJobs.length,
}

/** The service whose signing key the seed rotated. */
export const rotatedServiceId = String(rotatedServiceIndex + 1)
