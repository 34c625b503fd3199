import { parseEther } from 'viem'

export type SellerIndex = 0 | 1 | 2

/** Seller #1 of the seed: the only seeded seller whose jobs the reference seller answers. */
export const referenceSellerIndex: SellerIndex = 0

export type PlannedService = {
  /** Stable name used to derive the service's keys; the service id is its position + 1. */
  key: string
  seller: SellerIndex
  modelId: string
  providerIdentity: string
  pricePerCall: bigint
  maxInputBytes: bigint
  targetSeparated: boolean
}

/**
 * Where each seeded job ends up, as the reference contracts allow it:
 * - `disputed`: a dispute is open and nobody has arbitrated it yet (Disputed).
 * - `disputeFailed`: arbitrated while its attestation still verifies: the dispute failed and the
 *   job stays Disputed for good.
 * - `slashed`: signed with the rotated service's first key, disputed after the rotation and
 *   arbitrated: the attestation no longer verifies against the current key, so the service's bond
 *   is slashed (the reference's only path to a slash). The second such job finds the bond empty
 *   and is slashed for zero.
 * - `settledAfterRotation`: Settled with the rotated service's second key.
 */
export type JobOutcome =
  | 'pending'
  | 'settled'
  | 'settledAfterRotation'
  | 'expired'
  | 'disputed'
  | 'disputeFailed'
  | 'slashed'

export const plannedServices: readonly PlannedService[] = [
  { key: 'nebula-llama', seller: 0, modelId: 'llama-3.1-8b-instruct', providerIdentity: 'together-ai', pricePerCall: parseEther('0.001'), maxInputBytes: 16_384n, targetSeparated: true },
  { key: 'nebula-qwen', seller: 0, modelId: 'qwen2.5-7b-instruct', providerIdentity: 'fireworks-ai', pricePerCall: parseEther('0.0015'), maxInputBytes: 32_768n, targetSeparated: true },
  { key: 'aurora-deepseek', seller: 1, modelId: 'deepseek-r1-distill-llama-8b', providerIdentity: 'deepinfra', pricePerCall: parseEther('0.004'), maxInputBytes: 8_192n, targetSeparated: false },
  { key: 'aurora-mistral', seller: 1, modelId: 'mistral-7b-instruct-v0.3', providerIdentity: 'groq', pricePerCall: parseEther('0.0008'), maxInputBytes: 8_192n, targetSeparated: true },
  { key: 'helix-gemma', seller: 2, modelId: 'gemma-2-9b-it', providerIdentity: 'novita-ai', pricePerCall: parseEther('0.002'), maxInputBytes: 16_384n, targetSeparated: true },
  { key: 'helix-phi', seller: 2, modelId: 'phi-3.5-mini-instruct', providerIdentity: 'hyperbolic', pricePerCall: parseEther('0.0005'), maxInputBytes: 4_096n, targetSeparated: false },
]

/** Service 3 (aurora-deepseek): its signing key is rotated after its first jobs settled. */
export const rotatedServiceIndex = 2
/** Service 4 (aurora-mistral): delisted after its jobs settled; its seller asks for the bond back. */
export const delistedServiceIndex = 3
/** Service 6 (helix-phi): its seller turns it inactive with `updateService` after its jobs were created. */
export const inactiveServiceIndex = 5

/**
 * Outcomes per service, in creation order within the service. Pending jobs of services 1 and 2
 * (seller #1) are for the reference seller to answer; those of the other services stay Pending.
 */
const outcomesPerService: readonly (readonly JobOutcome[])[] = [
  ['settled', 'settled', 'pending', 'disputeFailed', 'settled', 'expired', 'settled', 'pending', 'settled'],
  ['settled', 'disputed', 'settled', 'expired', 'settled'],
  ['settled', 'slashed', 'settled', 'settled', 'pending', 'settledAfterRotation', 'slashed', 'settledAfterRotation'],
  ['settled', 'expired', 'settled'],
  ['settled', 'pending', 'disputeFailed', 'settled', 'expired', 'pending', 'settled'],
  ['settled', 'disputed', 'pending', 'settled'],
]

export type PlannedJob = { serviceIndex: number; buyerIndex: number; outcome: JobOutcome }

/** Jobs in creation order (job id = position + 1): services taken round-robin, buyers in turn. */
export const plannedJobs: readonly PlannedJob[] = (() => {
  const jobs: PlannedJob[] = []
  const longest = Math.max(...outcomesPerService.map((outcomes) => outcomes.length))
  for (let round = 0; round < longest; round++) {
    outcomesPerService.forEach((outcomes, serviceIndex) => {
      const outcome = outcomes[round]
      if (outcome !== undefined) jobs.push({ serviceIndex, buyerIndex: jobs.length % 6, outcome })
    })
  }
  return jobs
})()

export const prompts: readonly string[] = [
  'Summarise the causes of the 1929 stock market crash in three sentences.',
  'Write a haiku about a lighthouse in winter.',
  'Explain the difference between TCP and UDP to a new engineer.',
  'Translate "Where is the nearest train station?" into Spanish, French and German.',
  'List five edge cases to test in a date-parsing function.',
  'What is the time complexity of building a binary heap from n elements, and why?',
  'Draft a polite reminder email about an unpaid invoice.',
  'Give a one-paragraph overview of how TLS certificate pinning works.',
]

/** Staked per service: the arbiter's MIN_BOND (5 native tokens). */
export const serviceBond = parseEther('5')
/** Sent with each dispute: ten times the escrow's DISPUTE_BOND, so the 90/10 split of a failed one reads plainly. */
export const disputeBond = parseEther('0.01')

export const pendingTimeoutSeconds = 86_400n
export const settledTimeoutSeconds = 3_600n
export const expiringTimeoutSeconds = 60n
/** How far the seed moves the chain clock so the short-timeout jobs expire. */
export const timeTravelSeconds = 120
