import type { Job, JobEvent, JobEventName, JobStateName } from '../../contract/job.ts'

/** The event a job in this state must have emitted to be there. */
const requiredEvent: Partial<Record<JobStateName, JobEventName>> = {
  Attested: 'JobAttested',
  Settled: 'JobSettled',
  Expired: 'JobExpired',
  Disputed: 'JobDisputed',
  Slashed: 'JobSlashed',
}

/** The states a job that emitted this event can be in afterwards (an event missing here constrains nothing). */
const statesAfter: Partial<Record<JobEventName, readonly JobStateName[]>> = {
  JobAttested: ['Attested', 'Settled', 'Disputed', 'Slashed'],
  JobSettled: ['Settled', 'Disputed', 'Slashed'],
  JobExpired: ['Expired'],
  JobDisputed: ['Settled', 'Disputed', 'Slashed'],
  JobSlashed: ['Slashed'],
}

/**
 * Whether a job's history can have led to its record, both read at the same block: a Settled job
 * without JobSettled, or an Expired one with JobSettled, means a log was missed (or one was kept
 * from another chain). Only what the escrow's transitions make certain is checked: how a rejected
 * dispute ends is the arbiter's choice (chain-interface.md), so it constrains nothing.
 */
export function isJobHistoryConsistent(job: Pick<Job, 'stateName'>, events: readonly Pick<JobEvent, 'event'>[]): boolean {
  const required = requiredEvent[job.stateName]
  if (required !== undefined && !events.some(({ event }) => event === required)) return false
  return events.every(({ event }) => statesAfter[event]?.includes(job.stateName) ?? true)
}
