import type { TeeVerdictName } from '../../contract/tee.ts'
import { plannedServices, rotatedServiceIndex } from './marketPlan.ts'

/**
 * Where a seeded provider's 0G record points:
 * - `referenceSeller`: the reference seller's URL, where it serves an attestation report whose
 *   quote binds the first signing key of service 1 (its first service);
 * - `closedPort`: a local port nothing listens on (the connection is refused at once).
 */
export type PlannedTeeUrl = 'referenceSeller' | 'closedPort'

export type PlannedTeeRecord = {
  /** The service (its position in `plannedServices`) whose `providerAddress` holds the record. */
  serviceIndex: number
  url: PlannedTeeUrl
  /** Whether 0G's owner (the devnet deployer) acknowledges the record's TEE signer. */
  acknowledged: boolean
  expectedVerdict: TeeVerdictName
  why: string
}

/** A URL nothing serves: port 1 (tcpmux) is privileged and never open on a developer's machine. */
export const closedPortUrl = 'http://127.0.0.1:1'

/** Where the seed points the reference seller's records until the seller says where it listens (its default port). */
export const defaultReferenceSellerUrl = 'http://127.0.0.1:8082'

/**
 * The 0G provider records the seed registers on the devnet's InferenceServing mock, one per
 * verdict the indexer can reach. Each record's `teeSignerAddress` is its service's current
 * signing address. Services without an entry get no record (`none`).
 */
export const plannedTeeRecords: readonly PlannedTeeRecord[] = [
  {
    serviceIndex: 0,
    url: 'referenceSeller',
    acknowledged: true,
    expectedVerdict: 'verified',
    why: "the reference seller serves a devnet quote binding this service's signing key (and the nonce sent), the compose file it measured, and the record names that key",
  },
  {
    serviceIndex: 1,
    url: 'referenceSeller',
    acknowledged: false,
    expectedVerdict: 'failed',
    why: "the provider's URL serves a quote that binds another key (service 1's), not this service's signingAddress",
  },
  {
    serviceIndex: rotatedServiceIndex,
    url: 'closedPort',
    acknowledged: false,
    expectedVerdict: 'unreachable',
    why: `the provider's URL (${closedPortUrl}) refuses connections and nobody acknowledged its signer`,
  },
  {
    serviceIndex: 4,
    url: 'closedPort',
    acknowledged: true,
    expectedVerdict: 'acknowledged',
    why: `no evidence can be had (${closedPortUrl}), but 0G's owner acknowledged the record's signer, the service's key`,
  },
]

export type SeededTeeVerdict = { serviceId: bigint; expectedVerdict: TeeVerdictName; why: string }

/** The verdict the indexer should reach for every seeded service, in service order. */
export function seededTeeVerdicts(serviceIds: readonly bigint[]): SeededTeeVerdict[] {
  return plannedServices.map((_, index) => {
    const record = plannedTeeRecords.find((planned) => planned.serviceIndex === index)
    return {
      serviceId: serviceIds[index]!,
      expectedVerdict: record?.expectedVerdict ?? 'none',
      why: record?.why ?? 'its provider has no record on 0G',
    }
  })
}
