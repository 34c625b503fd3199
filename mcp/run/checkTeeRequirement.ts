import type { TeeCheck, TeeVerdict } from '../../contract/tee.ts'
import { TeeRequirementNotMetError } from '../../errors/run.ts'
import type { TeeRequirement } from './readRunSettings.ts'

/** The verdicts each setting accepts: `acknowledged` trusts 0G's owner where our own check could not complete. */
const accepted: Record<Exclude<TeeRequirement, 'off'>, readonly TeeVerdict['verdict'][]> = {
  verified: ['verified'],
  acknowledged: ['verified', 'acknowledged'],
}

export type CheckTeeRequirementParameters = {
  verdict: TeeVerdict
  required: Exclude<TeeRequirement, 'off'>
  isDefault: boolean
}

/** Checks that never decide a verdict: naming them in a refusal would only hide the ones that did. */
const informational = new Set<TeeCheck['name']>(['appraisal', 'gpu', 'teeTls'])

/** The checks that failed; where none did, those that could not run. */
function notPassed({ checks }: TeeVerdict): TeeCheck[] {
  const failed = checks.filter(({ status }) => status === 'fail')
  return failed.length > 0 ? failed : checks.filter(({ name, status }) => status === 'skip' && !informational.has(name))
}

/** Refuses, before anything is signed, a service whose TEE verdict is below the person's setting. */
export function checkTeeRequirement({ verdict, required, isDefault }: CheckTeeRequirementParameters): void {
  if (accepted[required].includes(verdict.verdict)) return
  throw new TeeRequirementNotMetError({
    serviceId: BigInt(verdict.serviceId),
    verdict: verdict.verdict,
    failedChecks: notPassed(verdict).map(({ name, status, reason }) => `${name} (${status}): ${reason.replace(/\.$/, '')}`),
    required,
    isDefault,
  })
}
