import type { TeeVerdict } from '../../contract/tee.ts'
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

/** Refuses, before anything is signed, a service whose TEE verdict is below the person's setting. */
export function checkTeeRequirement({ verdict, required, isDefault }: CheckTeeRequirementParameters): void {
  if (accepted[required].includes(verdict.verdict)) return
  throw new TeeRequirementNotMetError({
    serviceId: BigInt(verdict.serviceId),
    verdict: verdict.verdict,
    failedChecks: verdict.checks.filter((check) => check.status !== 'pass').map(({ name, status, reason }) => `${name} (${status}): ${reason}`),
    required,
    isDefault,
  })
}
