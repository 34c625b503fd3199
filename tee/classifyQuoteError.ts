import {
  TeeCollateralExpiredError,
  TeeCollateralInvalidError,
  TeeDebugTdError,
  TeeQuoteInvalidError,
  TeeQuoteMalformedError,
  TeeRevokedError,
  TeeTcbNotAcceptedError,
  TeeTcbUnlistedError,
} from '../errors/tee.ts'
import type { TcbPolicy } from './defaultTcbPolicy.ts'

export type ClassifyQuoteErrorParameters = {
  error: unknown
  now: Date
  tdAttributes: string
  policy: TcbPolicy
}

export type ClassifyQuoteErrorReturnType =
  | TeeQuoteMalformedError
  | TeeCollateralExpiredError
  | TeeCollateralInvalidError
  | TeeRevokedError
  | TeeDebugTdError
  | TeeTcbNotAcceptedError
  | TeeTcbUnlistedError
  | TeeQuoteInvalidError

/**
 * dcap-qvl throws plain `Error`s; their messages (pinned with the exact version in package.json,
 * and each covered by `test/tee/classifyQuoteError.test.ts`) say which rule failed. This turns
 * them into our errors, each with its reason, keeping dcap-qvl's error as the cause.
 */
export function classifyQuoteError({ error, now, tdAttributes, policy }: ClassifyQuoteErrorParameters): ClassifyQuoteErrorReturnType {
  const message = error instanceof Error ? error.message : String(error)
  const cause = error
  if (message.startsWith('Failed to decode quote') || message.startsWith('Unsupported DCAP PCK cert format')) {
    return new TeeQuoteMalformedError({ reason: message, cause })
  }
  if (message === 'TCBInfo expired' || message === 'TCBInfo issue date is in the future') return new TeeCollateralExpiredError({ what: 'TCB info', now, cause })
  if (message === 'QE Identity expired' || message === 'QE Identity issue date is in the future') return new TeeCollateralExpiredError({ what: 'QE identity', now, cause })
  if (message === 'Certificate is expired or not yet valid') {
    return new TeeCollateralExpiredError({ what: 'certificate chain (PCK, TCB info or QE identity signer)', now, cause })
  }
  if (message === 'Certificate is revoked') return new TeeRevokedError({ what: 'PCK, TCB signing or root certificate', cause })
  if (message === 'Debug mode is enabled') return new TeeDebugTdError({ tdAttributes, cause })
  if (message === 'No matching TCB level found') return new TeeTcbUnlistedError({ cause })
  const status = /^TCB status is invalid: (\w+)$/.exec(message)?.[1]
  if (status !== undefined) {
    return new TeeTcbNotAcceptedError({ status, advisoryIds: [], acceptedStatuses: policy.acceptedStatuses, allowedAdvisoryIds: policy.allowedAdvisoryIds, cause })
  }
  if (
    message.startsWith('Failed to decode TcbInfo') ||
    message.startsWith('Failed to decode QeIdentity') ||
    message.startsWith('Signature is invalid for tcb_info') ||
    message.startsWith('Signature is invalid for qe_identity') ||
    message.startsWith('Certificate chain is too short for') ||
    message.startsWith('Unsupported QE Identity') ||
    message === 'Fmspc mismatch' ||
    message.includes('TCB info in the collateral')
  ) {
    return new TeeCollateralInvalidError({ reason: message, cause })
  }
  return new TeeQuoteInvalidError({ reason: message, cause })
}
