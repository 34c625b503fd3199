import { createPublicClient, http, parseAbiItem } from 'viem'
import { inject } from 'vitest'

// Read with the registry's own event signatures, not through our mappers, store or REST API.
const updated = parseAbiItem('event ServiceUpdated(uint256 indexed serviceId, uint128 newPrice, bool active)')
const delisted = parseAbiItem('event ServiceDelisted(uint256 indexed serviceId)')

export type ExpectedServiceStatus = 'active' | 'inactive' | 'delisted'

/**
 * Each service's status as the seeded devnet's registry logs tell it, by service id: the last
 * `ServiceUpdated` or `ServiceDelisted` of a service decides; one with neither is active.
 */
export async function readServiceStatuses(): Promise<Map<string, ExpectedServiceStatus>> {
  const { rpcUrl, deployment } = inject('devnet')
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const logs = await chain.getLogs({ address: deployment.registry, events: [updated, delisted], fromBlock: BigInt(deployment.deployBlock), strict: true })
  const statuses = new Map<string, ExpectedServiceStatus>()
  for (const log of logs) {
    const status = log.eventName === 'ServiceDelisted' ? 'delisted' : log.args.active ? 'active' : 'inactive'
    statuses.set(String(log.args.serviceId), status)
  }
  return statuses
}
