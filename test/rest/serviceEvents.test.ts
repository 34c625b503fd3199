import { initClient } from '@ts-rest/core'
import { createPublicClient, http, parseAbiItem } from 'viem'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { marketContract } from '../../contract/router.ts'
import { ServiceEventListSchema } from '../../contract/serviceEvent.ts'
import { startRestServer, type RestServer } from './startRestServer.ts'

// The oracle reads the registry's logs with its own event signatures, not through our mappers.
const registered = parseAbiItem(
  'event ServiceRegistered(uint256 indexed serviceId, address indexed seller, uint256 inftTokenId, bytes32 capabilityHash, address signingAddress)',
)
const rotated = parseAbiItem('event SigningAddressRotated(uint256 indexed serviceId, address oldKey, address newKey)')
const updated = parseAbiItem('event ServiceUpdated(uint256 indexed serviceId, uint128 newPrice, bool active)')
const delisted = parseAbiItem('event ServiceDelisted(uint256 indexed serviceId)')

let server: RestServer
const client = () => initClient(marketContract, { baseUrl: server.baseUrl, baseHeaders: {} })

beforeAll(async () => {
  server = await startRestServer()
})
afterAll(() => server.stop())

test('default: every service answers with its registry logs, oldest first, with what each changed', async () => {
  const { rpcUrl, deployment } = inject('devnet')
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const logs = await chain.getLogs({
    address: deployment.registry,
    events: [registered, rotated, updated, delisted],
    fromBlock: BigInt(deployment.deployBlock),
    strict: true,
  })
  const services = await client().services.listServices()
  if (services.status !== 200) throw new Error(`listServices answered ${services.status}`)
  let rotations = 0
  for (const { serviceId } of services.body.services) {
    const response = await client().services.getServiceEvents({ params: { id: serviceId } })
    expect(response.status).toBe(200)
    const list = ServiceEventListSchema.parse(response.body)
    const expected = await Promise.all(
      logs
        .filter((log) => log.args.serviceId === BigInt(serviceId))
        .map(async (log) => {
          const block = await chain.getBlock({ blockNumber: log.blockNumber })
          const base = {
            event: log.eventName,
            blockNumber: String(log.blockNumber),
            transactionHash: log.transactionHash,
            logIndex: log.logIndex,
            timestamp: String(block.timestamp),
          }
          if (log.eventName === 'ServiceRegistered') return { ...base, signingAddress: log.args.signingAddress }
          if (log.eventName === 'SigningAddressRotated')
            return { ...base, signingAddress: log.args.newKey, previousSigningAddress: log.args.oldKey }
          if (log.eventName === 'ServiceUpdated') return { ...base, pricePerCall: String(log.args.newPrice), active: log.args.active }
          return base
        }),
    )
    expect(list.events, `service ${serviceId}`).toEqual(expected)
    expect(list.count).toBe(list.events.length)
    expect(list.events[0]?.event).toBe('ServiceRegistered')
    rotations += list.events.filter(({ event }) => event === 'SigningAddressRotated').length
  }
  // The seeded market rotates a key; without one this test would check less than it says.
  expect(rotations).toBeGreaterThan(0)
})

test('an unknown service is a 404 and a malformed id a 400', async () => {
  expect((await client().services.getServiceEvents({ params: { id: '999999' } })).status).toBe(404)
  expect((await client().services.getServiceEvents({ params: { id: '01' } })).status).toBe(400)
})
