import { describe, expect, test } from 'vitest'
import { fillSyntheticStore } from '../../bench/fillSyntheticStore.ts'
import { attestedOutcomes, type BenchOutcome, extraEvents, outcomeStates, planBenchJob } from '../../bench/planBenchJob.ts'
import { JobSchema } from '../../contract/job.ts'
import { ServiceSchema } from '../../contract/service.ts'
import { createStore, type Store } from '../../server/store/createStore.ts'

// Two whole turns of the 24 buyers' 45-job transactions: every plan index below 2,160 once.
const jobs = 2_160
const newStore = (): Store => createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })
const filled = newStore()
fillSyntheticStore(filled, { from: 1, to: jobs })

const eventsOf = (outcome: BenchOutcome): number => 1 + extraEvents[outcome]

test('default', () => {
  expect(filled.counters.jobs).toBe(jobs)
  expect(filled.counters.services).toBe(50)
  for (const service of filled.serviceList()) expect(ServiceSchema.safeParse(service).success).toBe(true)
  for (const { job } of filled.jobList) expect(JobSchema.safeParse(job).success).toBe(true)
})

describe('market', () => {
  test('the chain plan\'s outcomes, services and buyers, each once', () => {
    const planned = new Map<string, number>()
    const held = new Map<string, number>()
    const key = (state: string, serviceId: string, buyer: string): string => `${state} ${serviceId} ${buyer}`
    for (let index = 0; index < jobs; index += 1) {
      const { outcome, service, buyer } = planBenchJob(index)
      const planKey = key(outcomeStates[outcome], String(service.index + 1), buyer)
      planned.set(planKey, (planned.get(planKey) ?? 0) + 1)
    }
    for (const { job } of filled.jobList) {
      const heldKey = key(job.stateName, job.serviceId, job.buyer)
      held.set(heldKey, (held.get(heldKey) ?? 0) + 1)
    }
    expect(held).toEqual(planned)
  })

  test('each outcome leaves the events it leaves on the chain, an attested job its parsed attestation', () => {
    const seen = new Set<number>()
    for (const entry of filled.jobList) {
      const count = entry.events.length
      seen.add(count)
      const outcome = (Object.keys(extraEvents) as BenchOutcome[]).find((name) => eventsOf(name) === count)
      if (outcome === undefined) throw new Error(`A job with ${count} events is no outcome of the plan.`)
      expect(entry.job.stateName).toBe(outcomeStates[outcome])
      expect(entry.job.attestation !== undefined && entry.job.attestation !== null).toBe(attestedOutcomes.includes(outcome))
    }
    expect([...seen].sort()).toEqual([1, 2, 3, 5, 6, 7])
  })

  test('45 jobs created a transaction, 90 a block; hashes and commitments a job owns are its own', () => {
    const created = filled.jobList.map((entry) => entry.events[0])
    expect(new Set(created.slice(0, 45).map((event) => event?.transactionHash)).size).toBe(1)
    expect(created[45]?.transactionHash).not.toBe(created[44]?.transactionHash)
    expect(new Set(created.slice(0, 90).map((event) => event?.blockNumber)).size).toBe(1)
    expect(created[90]?.blockNumber).not.toBe(created[89]?.blockNumber)
    const owned = filled.jobList.flatMap(({ job }) => [job.inputCommitment, job.outputRootHash, job.chatId, job.attestationSignature])
    const defined = owned.filter((value) => value !== undefined)
    expect(new Set(defined).size).toBe(defined.length)
  })
})

describe('from, to', () => {
  test('filled window by window, the store holds what one fill puts', () => {
    const windowed = newStore()
    for (let from = 1; from <= jobs; from += 500) fillSyntheticStore(windowed, { from, to: Math.min(jobs, from + 499), jobs })
    for (const jobId of [1n, 46n, 777n, 2_160n]) expect(windowed.jobSnapshot(jobId)).toEqual(filled.jobSnapshot(jobId))
    expect(windowed.counters).toEqual(filled.counters)
  })
})
