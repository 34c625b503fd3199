import type { Job, JobEvent, JobEventName, JobStateName } from '../../contract/job.ts'

/**
 * The events a job in this state must have emitted to be there (the escrow's only ways in). The
 * escrow's `dispute` calls the arbiter's `openDispute` (DisputeOpened) and only the arbiter's slash
 * calls `markSlashed` (Slashed beside JobSlashed), so a dispute's facts are never missing unseen.
 */
const requiredEvents: Partial<Record<JobStateName, readonly JobEventName[]>> = {
  Attested: ['JobAttested'],
  Settled: ['JobAttested', 'JobSettled'],
  Expired: ['JobExpired'],
  Disputed: ['JobAttested', 'JobSettled', 'JobDisputed', 'DisputeOpened'],
  Slashed: ['JobAttested', 'JobSettled', 'JobDisputed', 'DisputeOpened', 'JobSlashed', 'Slashed'],
}

/** The states a job that emitted this event can be in afterwards (an event missing here constrains nothing). */
const statesAfter: Partial<Record<JobEventName, readonly JobStateName[]>> = {
  JobAttested: ['Attested', 'Settled', 'Disputed', 'Slashed'],
  JobSettled: ['Settled', 'Disputed', 'Slashed'],
  JobExpired: ['Expired'],
  JobDisputed: ['Disputed', 'Slashed'],
  JobSlashed: ['Slashed'],
  DisputeOpened: ['Disputed', 'Slashed'],
  DisputeFailed: ['Disputed'],
  Slashed: ['Slashed'],
}

/** The state each event leaves a job in (a failed dispute leaves it Disputed for good). */
const stateAfter: Record<JobEventName, JobStateName> = {
  JobCreated: 'Pending',
  JobAttested: 'Attested',
  JobSettled: 'Settled',
  JobExpired: 'Expired',
  JobDisputed: 'Disputed',
  JobSlashed: 'Slashed',
  DisputeOpened: 'Disputed',
  DisputeFailed: 'Disputed',
  Slashed: 'Slashed',
}

export type CheckJobHistoryReturnType = 'consistent' | 'doubtful' | 'inconsistent'

/**
 * Whether a job's history can have led to its record, both read at the same block.
 * "inconsistent": certainly not (a Settled job without JobSettled, an Expired one with it): a log
 * was missed, or one kept from another chain. "doubtful": the last event leaves the job in
 * another state than its record, which a missed log explains, but so may the reference arbiter,
 * which can end a dispute without an escrow event (chain-interface.md): the history is worth
 * reading again, and what that read finds is the truth.
 */
export function checkJobHistory(job: Pick<Job, 'stateName'>, events: readonly Pick<JobEvent, 'event'>[]): CheckJobHistoryReturnType {
  for (const required of requiredEvents[job.stateName] ?? []) {
    if (!events.some(({ event }) => event === required)) return 'inconsistent'
  }
  if (!events.every(({ event }) => statesAfter[event]?.includes(job.stateName) ?? true)) return 'inconsistent'
  const last = events.at(-1)
  if (last !== undefined && stateAfter[last.event] !== job.stateName && !(last.event === 'JobCreated' && job.stateName === 'Sealed')) {
    return 'doubtful'
  }
  return 'consistent'
}
