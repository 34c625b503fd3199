import type { TcbStatus } from '@phala/dcap-qvl'
import { TeeTcbNotAcceptedError } from '../errors/tee.ts'
import type { TcbPolicy } from './defaultTcbPolicy.ts'

export type CheckTcbPolicyParameters = {
  status: TcbStatus
  advisoryIds: readonly string[]
  policy: TcbPolicy
}

/** Why the status passed: on its own, or because each of its advisories is allowed. */
export type CheckTcbPolicyReturnType = { acceptedBy: 'status' | 'advisories' }

export type CheckTcbPolicyErrorType = TeeTcbNotAcceptedError

export function checkTcbPolicy({ status, advisoryIds, policy }: CheckTcbPolicyParameters): CheckTcbPolicyReturnType {
  if (policy.acceptedStatuses.includes(status)) return { acceptedBy: 'status' }
  const allowed = (id: string) => policy.allowedAdvisoryIds.some((a) => a.toUpperCase() === id.toUpperCase())
  // An empty advisory list allows nothing: the status itself was not accepted.
  if (status !== 'Revoked' && advisoryIds.length > 0 && advisoryIds.every(allowed)) return { acceptedBy: 'advisories' }
  throw new TeeTcbNotAcceptedError({
    status,
    advisoryIds,
    acceptedStatuses: policy.acceptedStatuses,
    allowedAdvisoryIds: policy.allowedAdvisoryIds,
  })
}
