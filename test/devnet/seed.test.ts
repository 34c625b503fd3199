import { createPublicClient, formatEther, http, isAddressEqual, parseEther, type PublicClient } from 'viem'
import { getContractEvents, readContract } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { readJobs } from '../../chain/read/readJobs.ts'
import { readServices } from '../../chain/read/readServices.ts'
import type { Job } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import { seedAccounts, serviceSigningAccount } from '../../devnet/seed/seedAccounts.ts'
import { plannedServices, rotatedServiceIndex } from '../../devnet/seed/marketPlan.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'

type Market = { services: Service[]; jobs: Job[] }

async function readMarket(client: PublicClient, { registry, escrow }: { registry: `0x${string}`; escrow: `0x${string}` }): Promise<Market> {
  const [nextServiceId, nextJobId] = await Promise.all([
    readContract(client, { address: registry, abi: registryAbi, functionName: 'nextServiceId' }),
    readContract(client, { address: escrow, abi: escrowAbi, functionName: 'nextJobId' }),
  ])
  const range = (end: bigint) => Array.from({ length: Number(end - 1n) }, (_, index) => BigInt(index + 1))
  const [services, jobs] = await Promise.all([
    readServices(client, { registry, ids: range(nextServiceId) }),
    readJobs(client, { escrow, ids: range(nextJobId) }),
  ])
  return { services, jobs }
}

const { rpcUrl, deployment } = inject('devnet')
const client = createPublicClient({ transport: http(rpcUrl, { batch: true }) })
let market: Market

beforeAll(async () => {
  market = await readMarket(client, deployment)
})

test('default', () => {
  const countOf = (stateName: string) => market.jobs.filter((job) => job.stateName === stateName).length
  expect(market.jobs.length).toBeGreaterThanOrEqual(30)
  expect({
    Pending: countOf('Pending'),
    Settled: countOf('Settled'),
    Expired: countOf('Expired'),
    Disputed: countOf('Disputed'),
    Slashed: countOf('Slashed'),
  }).toMatchInlineSnapshot(`
    {
      "Disputed": 4,
      "Expired": 4,
      "Pending": 6,
      "Settled": 20,
      "Slashed": 2,
    }
  `)
})

describe('services', () => {
  test('at least 3 sellers and 5 services with different models and prices', () => {
    expect(new Set(market.services.map((service) => service.seller)).size).toBeGreaterThanOrEqual(3)
    expect(market.services.length).toBeGreaterThanOrEqual(5)
    expect(new Set(market.services.map((service) => service.modelId)).size).toBe(market.services.length)
    expect(new Set(market.services.map((service) => service.pricePerCall)).size).toBe(market.services.length)
    for (const service of market.services) expect(service.providerType).toBe('centralized')
  })

  test('one is delisted and one made inactive by updateService, both with settled jobs', async () => {
    const inactive = market.services.filter((service) => !service.active)
    expect(inactive.map((service) => service.serviceId)).toEqual(['4', '6'])
    const delisted = await getContractEvents(client, {
      address: deployment.registry,
      abi: registryAbi,
      eventName: 'ServiceDelisted',
      fromBlock: 0n,
    })
    expect(delisted.map((event) => event.args.serviceId)).toEqual([4n])
    const updated = await getContractEvents(client, {
      address: deployment.registry,
      abi: registryAbi,
      eventName: 'ServiceUpdated',
      fromBlock: 0n,
    })
    expect(updated.map((event) => event.args)).toEqual([
      { serviceId: 6n, newPrice: BigInt(market.services[5]!.pricePerCall), active: false },
    ])
    for (const serviceId of ['4', '6']) {
      expect(market.jobs.some((job) => job.serviceId === serviceId && job.stateName === 'Settled')).toBe(true)
    }
  })

  test('every service staked MIN_BOND; the rotated one was slashed and the delisted one asked for it back', async () => {
    const arbiter = { address: deployment.arbiter, abi: arbiterAbi } as const
    const bonds = await Promise.all(
      market.services.map((service) =>
        readContract(client, { ...arbiter, functionName: 'getBond', args: [BigInt(service.serviceId)] }),
      ),
    )
    const staked = await getContractEvents(client, { ...arbiter, eventName: 'BondStaked', fromBlock: 0n })
    expect(staked.map((event) => event.args.newTotal)).toEqual(market.services.map(() => parseEther('5')))
    expect(bonds.map(([amount]) => formatEther(amount))).toEqual(['5', '5', '0', '5', '5', '5'])
    const requested = await getContractEvents(client, { ...arbiter, eventName: 'WithdrawalRequested', fromBlock: 0n })
    expect(requested.map((event) => event.args.serviceId)).toEqual([4n])
    expect(bonds[3]![1]).toBe(requested[0]!.args.unlockAt)
  })

  test('one rotated its signing key after some of its jobs settled', async () => {
    const rotations = await getContractEvents(client, {
      address: deployment.registry,
      abi: registryAbi,
      eventName: 'SigningAddressRotated',
      fromBlock: 0n,
    })
    expect(rotations).toHaveLength(1)
    const rotation = rotations[0]!
    const key = plannedServices[rotatedServiceIndex]!.key
    expect(rotation.args).toEqual({
      serviceId: 3n,
      oldKey: serviceSigningAccount({ key, generation: 1 }).address,
      newKey: serviceSigningAccount({ key, generation: 2 }).address,
    })
    const service = market.services.find((service) => service.serviceId === '3')!
    expect(service.signingAddress).toBe(rotation.args.newKey)

    const attested = await getContractEvents(client, {
      address: deployment.escrow,
      abi: escrowAbi,
      eventName: 'JobAttested',
      fromBlock: 0n,
    })
    const jobsOfService = new Set(market.jobs.filter((job) => job.serviceId === '3').map((job) => BigInt(job.jobId)))
    const signers = attested.filter((event) => jobsOfService.has(event.args.jobId!))
    const before = signers.filter((event) => event.blockNumber < rotation.blockNumber)
    const after = signers.filter((event) => event.blockNumber > rotation.blockNumber)
    expect(before.length).toBeGreaterThan(0)
    expect(after.length).toBeGreaterThan(0)
    for (const event of before) expect(event.args.recoveredSigner).toBe(rotation.args.oldKey)
    for (const event of after) expect(event.args.recoveredSigner).toBe(rotation.args.newKey)
  })
})

describe('disputes, as the reference arbiter settles them', () => {
  const arbiter = () => ({ address: deployment.arbiter, abi: arbiterAbi }) as const
  const stateOf = (jobId: bigint) => market.jobs.find((job) => job.jobId === String(jobId))!.stateName

  test('failed disputes leave their jobs Disputed; open ones have no outcome yet', async () => {
    const [opened, failed] = await Promise.all([
      getContractEvents(client, { ...arbiter(), eventName: 'DisputeOpened', fromBlock: 0n }),
      getContractEvents(client, { ...arbiter(), eventName: 'DisputeFailed', fromBlock: 0n }),
    ])
    expect(opened).toHaveLength(6)
    expect(failed.length).toBeGreaterThan(0)
    for (const event of failed) {
      expect(stateOf(event.args.jobId!)).toBe('Disputed')
      expect(event.args).toMatchObject({ toSeller: parseEther('0.009'), toTreasury: parseEther('0.001') })
    }
    const settledDisputes = new Set([...failed.map((event) => event.args.jobId)])
    const open = opened.filter((event) => !settledDisputes.has(event.args.jobId) && stateOf(event.args.jobId!) === 'Disputed')
    expect(open.length).toBeGreaterThan(0)
    for (const event of open) {
      expect(await readContract(client, { ...arbiter(), functionName: 'arbitrated', args: [event.args.jobId!] })).toBe(false)
    }
  })

  test('slashes follow the key rotation: the first takes the whole bond 70/20/10, the second finds it empty', async () => {
    const [rotation] = await getContractEvents(client, {
      address: deployment.registry,
      abi: registryAbi,
      eventName: 'SigningAddressRotated',
      fromBlock: 0n,
    })
    const slashes = await getContractEvents(client, { ...arbiter(), eventName: 'Slashed', fromBlock: 0n })
    expect(slashes.map((event) => formatEther(event.args.sellerBondSlashed!))).toEqual(['5', '0'])
    expect(slashes[0]!.args).toMatchObject({ toDisputer: parseEther('3.5'), toTreasury: parseEther('1'), burned: parseEther('0.5') })
    const attested = await getContractEvents(client, {
      address: deployment.escrow,
      abi: escrowAbi,
      eventName: 'JobAttested',
      fromBlock: 0n,
    })
    for (const slash of slashes) {
      expect(slash.blockNumber).toBeGreaterThan(rotation!.blockNumber)
      const job = market.jobs.find((candidate) => candidate.jobId === String(slash.args.jobId))!
      expect(job).toMatchObject({ serviceId: '3', stateName: 'Slashed' })
      // Settled with the key the service later rotated away from.
      const settlement = attested.find((event) => event.args.jobId === slash.args.jobId)!
      expect(settlement.args.recoveredSigner).toBe(rotation!.args.oldKey)
      expect(settlement.blockNumber).toBeLessThan(rotation!.blockNumber)
    }
  })
})

describe('jobs', () => {
  test('settled jobs carry a parsable attestation', () => {
    const settled = market.jobs.filter((job) => job.stateName === 'Settled')
    expect(settled.length).toBeGreaterThan(0)
    for (const job of settled) expect(job.attestation).toMatchObject({ providerType: 'centralized' })
  })

  test('at least two Pending jobs belong to sellers the reference seller does not run, with a day to go', async () => {
    const block = await client.getBlock()
    const referenceSeller = seedAccounts.sellers[0].address
    const pendingElsewhere = market.jobs.filter(
      (job) => job.stateName === 'Pending' && !isAddressEqual(job.seller, referenceSeller),
    )
    expect(pendingElsewhere.length).toBeGreaterThanOrEqual(2)
    for (const job of pendingElsewhere) {
      expect(BigInt(job.timeout) - block.timestamp).toBeGreaterThan(20n * 3600n)
    }
  })

  test('buyers are the fixed buyer accounts', () => {
    const buyers = new Set<string>(seedAccounts.buyers.map((account) => account.address))
    for (const job of market.jobs) expect(buyers.has(job.buyer)).toBe(true)
  })
})

describe('determinism', () => {
  let second: StartDevnetReturnType
  beforeAll(async () => {
    second = await startTestDevnet({ seed: true })
  })
  afterAll(async () => {
    await second?.stop()
  })

  test('a second devnet has the same addresses, services and jobs', async () => {
    // Its TEE root is made afresh and its PCCS listens on a port of its own: only the mock's address repeats.
    const { tee, ...addresses } = second.deployment
    const { tee: firstTee, ...firstAddresses } = deployment
    expect(addresses).toEqual(firstAddresses)
    expect(tee?.inferenceServing).toBe(firstTee?.inferenceServing)
    expect(tee?.rootCa).not.toBe(firstTee?.rootCa)
    const other = await readMarket(createPublicClient({ transport: http(second.rpcUrl, { batch: true }) }), second.deployment)
    const stable = ({ services, jobs }: Market) => ({
      services: services.map(({ registeredAt: _, ...service }) => service),
      jobs: jobs.map(({ createdAt: _, timeout: __, ...job }) => job),
    })
    expect(stable(other)).toEqual(stable(market))
  })
})
