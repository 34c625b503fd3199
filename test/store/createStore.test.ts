import { parseEther } from 'viem'
import type { DisputeEvent } from '../../contract/disputeEvent.ts'
import { describe, expect, test } from 'vitest'
import { JobSchema, type Job, type JobEvent, type JobEventName } from '../../contract/job.ts'
import { getJob, getJobDispute, getSeller, getServiceEvents, getStats, getTransaction, listJobs } from '../../server/readers/index.ts'
import { ServiceSchema } from '../../contract/service.ts'
import type { ServiceEvent } from '../../contract/serviceEvent.ts'
import { createStore, type Store } from '../../server/store/createStore.ts'

// The store on its own, filled by hand the way applyLogs fills it: what each change does to the
// records, the counters and the versions the HTTP layer builds ETags from.
const seller = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const amount = parseEther('0.01')
const fee = amount / 20n

const job = (id: number, state: 0 | 3 = 0): Job =>
  JobSchema.parse({
    jobId: String(id),
    serviceId: '1',
    buyer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    seller,
    amount: amount.toString(),
    protocolFee: fee.toString(),
    createdAt: String(1_700_000_000 + id),
    timeout: String(1_700_086_400 + id),
    state,
    stateName: state === 0 ? 'Pending' : 'Settled',
    inputCommitment: `0x${id.toString(16).padStart(64, '0')}`,
    ...(state === 0
      ? {}
      : {
          outputRootHash: `0x${'aa'.repeat(32)}`,
          chatId: `0x${'bb'.repeat(32)}`,
          attestationText: '0x00',
          attestationSignature: '0x00',
          attestation: null,
        }),
  })

const event = (name: JobEventName, blockNumber: number, logIndex: number): JobEvent => ({
  event: name,
  blockNumber: String(blockNumber),
  transactionHash: `0x${blockNumber.toString(16).padStart(64, '0')}`,
  logIndex,
  timestamp: String(1_700_000_000 + blockNumber),
})

const newStore = (): Store => createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })

const settle = (store: Store, jobId: number, blockNumber: number): void => {
  store.putJob({ jobId: BigInt(jobId), job: job(jobId, 3) })
  store.addJobEvent({ jobId: BigInt(jobId), event: event('JobAttested', blockNumber, 0) })
  store.addJobEvent({ jobId: BigInt(jobId), event: event('JobSettled', blockNumber, 1), settledWei: amount })
}

const eventPositions = (store: Store, jobId: number): string[] =>
  getJob(store, { jobId: BigInt(jobId) }).events.map(({ event, blockNumber, logIndex }) => `${event}@${blockNumber}:${logIndex}`)

describe('what the readers hand out', () => {
  test('the list and seller entries are the stored record itself; the detail adds its events', () => {
    const store = newStore()
    store.putJob({ jobId: 1n, job: job(1) })
    store.addJobEvent({ jobId: 1n, event: event('JobCreated', 5, 0) })
    const stored = store.job(1n)
    expect(listJobs(store).jobs[0]).toBe(stored?.job)
    expect(getSeller(store, { address: seller.toLowerCase() }).jobs[0]).toBe(stored?.job)
    expect(stored?.job).toStrictEqual(job(1))
    expect(getJob(store, { jobId: 1n })).toStrictEqual({ ...job(1), events: [event('JobCreated', 5, 0)] })
    expect(getJob(store, { jobId: 1n }).events).toStrictEqual(stored?.events)
  })

  test('a change replaces the record and the events: what was handed out stays as it was', () => {
    const store = newStore()
    store.putJob({ jobId: 1n, job: job(1) })
    store.addJobEvent({ jobId: 1n, event: event('JobCreated', 5, 0) })
    const record = listJobs(store).jobs[0]
    const detail = getJob(store, { jobId: 1n })
    settle(store, 1, 9)
    expect(record?.stateName).toBe('Pending')
    expect(detail.stateName).toBe('Pending')
    expect(detail.events).toHaveLength(1)
    expect(getJob(store, { jobId: 1n })).toMatchObject({ stateName: 'Settled', events: [{}, {}, {}] })
  })

  test('each read of the history is a new array of new events: changing one leaves the store as it was', () => {
    const store = newStore()
    settle(store, 1, 9)
    const handedOut = getJob(store, { jobId: 1n }).events as JobEvent[]
    const first = handedOut[0] as JobEvent
    first.logIndex = 99
    first.transactionHash = `0x${'ff'.repeat(32)}`
    handedOut.pop()
    expect(getJob(store, { jobId: 1n }).events).toStrictEqual([event('JobAttested', 9, 0), event('JobSettled', 9, 1)])
    expect(store.transactionRecords(`0x${'ff'.repeat(32)}`).jobs).toEqual([])
    expect(store.counters.totalSettledWei).toBe(amount)
  })
})

describe('ids', () => {
  test('uint256 ids: found and ordered by value, past 2^53 and 2^64 too', () => {
    const store = newStore()
    const ids = [10n, 9n, 2n ** 64n + 1n, 2n ** 53n + 1n, 2n ** 53n]
    for (const id of ids) store.putJob({ jobId: id, job: { ...job(1), jobId: id.toString() } })
    const ascending = [...ids].sort((a, b) => (a < b ? -1 : 1))
    expect(store.jobIds).toEqual(ascending)
    expect(listJobs(store).jobs.map(({ jobId }) => jobId)).toEqual(ascending.reverse().map(String))
    for (const id of ids) expect(store.job(id)?.job.jobId).toBe(id.toString())
    expect(store.job(2n ** 64n)).toBeUndefined()
    expect(store.job(11n)).toBeUndefined()
  })

  test('gaps in the ids (older jobs touched later, rollbacks): every id still found, none invented', () => {
    const store = newStore()
    const ids = [7n, 2n, 8n, 9n, 40n, 41n, 42n, 5n]
    for (const id of ids) store.putJob({ jobId: id, job: { ...job(1), jobId: id.toString() } })
    for (const id of ids) expect(store.job(id)?.job.jobId).toBe(id.toString())
    for (const id of [0n, 1n, 3n, 6n, 10n, 39n, 43n]) expect(store.job(id)).toBeUndefined()
  })

  test('a record under another id is refused', () => {
    expect(() => newStore().putJob({ jobId: 2n, job: job(1) })).toThrow('Job 2 must be stored under its own id, not "1".')
  })
})

describe('versions', () => {
  test('the store version grows with every visible change; a job keeps the version of its last change', () => {
    const store = newStore()
    const seen = [store.version]
    store.putJob({ jobId: 1n, job: job(1) })
    seen.push(store.version)
    expect(store.job(1n)?.version).toBe(store.version)
    store.putJob({ jobId: 2n, job: job(2) })
    seen.push(store.version)
    store.addJobEvent({ jobId: 2n, event: event('JobCreated', 5, 0) })
    seen.push(store.version)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    expect(new Set(seen).size).toBe(seen.length)
    const job1Version = store.job(1n)?.version
    expect(job1Version).toBeLessThan(store.version)
    expect(store.job(2n)?.version).toBe(store.version)

    // A log applied again (a window read twice) changes nothing, so no version moves.
    const version = store.version
    store.addJobEvent({ jobId: 2n, event: event('JobCreated', 5, 0) })
    expect(store.version).toBe(version)
    expect(store.job(1n)?.version).toBe(job1Version)
  })
})

describe('events', () => {
  test('kept in chain order (block numbers compared as numbers), each log once', () => {
    const store = newStore()
    store.putJob({ jobId: 1n, job: job(1) })
    store.addJobEvent({ jobId: 1n, event: event('JobDisputed', 10, 0) })
    store.addJobEvent({ jobId: 1n, event: event('JobCreated', 9, 3) })
    store.addJobEvent({ jobId: 1n, event: event('JobAttested', 10, 0) })
    store.addJobEvent({ jobId: 1n, event: event('JobSettled', 9, 7) })
    store.addJobEvent({ jobId: 1n, event: event('JobCreated', 9, 3) })
    expect(eventPositions(store, 1)).toEqual(['JobCreated@9:3', 'JobSettled@9:7', 'JobDisputed@10:0'])
  })

  test('counters follow the events: a settlement applied twice counts once', () => {
    const store = newStore()
    store.putJob({ jobId: 1n, job: job(1) })
    store.addJobEvent({ jobId: 1n, event: event('JobCreated', 5, 0) })
    settle(store, 1, 9)
    settle(store, 1, 9)
    expect(getStats(store)).toEqual({
      services: 0,
      jobs: { total: 1, settled: 1, expired: 0, slashed: 0 },
      totalSettledWei: amount.toString(),
    })
  })
})

describe('rollback', () => {
  const filled = (): Store => {
    const store = newStore()
    for (const [jobId, createdIn] of [
      [1, 5],
      [2, 12],
    ] as const) {
      store.putJob({ jobId: BigInt(jobId), job: job(jobId) })
      store.addJobEvent({ jobId: BigInt(jobId), event: event('JobCreated', createdIn, 0) })
    }
    settle(store, 1, 11)
    return store
  }

  test('drops the events above the ancestor and the jobs created there, and marks the rest stale', () => {
    const store = filled()
    const version = store.version
    store.rollback({ number: 10n, hash: `0x${'01'.repeat(32)}` })
    expect(store.jobIds).toEqual([1n])
    expect(store.job(2n)).toBeUndefined()
    expect(eventPositions(store, 1)).toEqual(['JobCreated@5:0'])
    expect([...store.staleJobIds]).toEqual([1n])
    expect(store.job(1n)?.version).toBeGreaterThan(version)
    expect(getStats(store)).toEqual({
      services: 0,
      jobs: { total: 1, settled: 0, expired: 0, slashed: 0 },
      totalSettledWei: '0',
    })
  })

  test('the new branch applied afterwards counts once, even at the same heights and log indexes', () => {
    const store = filled()
    store.rollback({ number: 10n, hash: `0x${'01'.repeat(32)}` })
    settle(store, 1, 11)
    settle(store, 1, 11)
    expect(eventPositions(store, 1)).toEqual(['JobCreated@5:0', 'JobAttested@11:0', 'JobSettled@11:1'])
    expect(getStats(store)).toEqual({
      services: 0,
      jobs: { total: 1, settled: 1, expired: 0, slashed: 0 },
      totalSettledWei: amount.toString(),
    })
  })

  test('a job whose record came without events (created before the range) survives any rollback', () => {
    const store = newStore()
    store.putJob({ jobId: 1n, job: job(1) })
    store.rollback({ number: 0n, hash: `0x${'01'.repeat(32)}` })
    expect(store.jobIds).toEqual([1n])
  })
})

describe('dispute events', () => {
  const disputer = '0x90F79bf6EB2c4F937073a2c6f0f1fa2fC3D0A4b2'
  const opened = (blockNumber: number): DisputeEvent => ({ ...event('DisputeOpened', blockNumber, 3), event: 'DisputeOpened', disputer, bond: '10000000000000000' })
  const disputed = (blockNumber: number): DisputeEvent => ({ ...event('JobDisputed', blockNumber, 2), event: 'JobDisputed', disputer })
  const dispute = (store: Store, jobId: number, blockNumber: number): void => {
    for (const facts of [opened(blockNumber), disputed(blockNumber)]) {
      const { event: name, blockNumber: block, logIndex } = facts
      store.addJobEvent({ jobId: BigInt(jobId), event: event(name, Number(block), logIndex), dispute: facts })
    }
  }

  test('default: kept with their arguments in chain order, each log once; a job never disputed has none', () => {
    const store = newStore()
    settle(store, 1, 11)
    settle(store, 2, 11)
    const version = store.job(1n)?.version as number
    dispute(store, 1, 20)
    dispute(store, 1, 20)
    expect(getJobDispute(store, { jobId: 1n })).toStrictEqual({ jobId: '1', count: 2, events: [disputed(20), opened(20)] })
    expect(store.job(1n)?.version).toBeGreaterThan(version)
    expect(getJobDispute(store, { jobId: 2n })).toStrictEqual({ jobId: '2', count: 0, events: [] })
    expect(eventPositions(store, 1)).toEqual(['JobAttested@11:0', 'JobSettled@11:1', 'JobDisputed@20:2', 'DisputeOpened@20:3'])
  })

  test('an unknown job is a JobNotFoundError, as getJob', () => {
    expect(() => getJobDispute(newStore(), { jobId: 7n })).toThrow('Job "7" could not be found.')
  })

  test('a rollback, a repair and a deleted job take their dispute events with them', () => {
    const store = newStore()
    settle(store, 1, 11)
    dispute(store, 1, 20)
    store.rollback({ number: 15n, hash: `0x${'01'.repeat(32)}` })
    expect(getJobDispute(store, { jobId: 1n }).events).toEqual([])
    dispute(store, 1, 21)
    const first = disputed(21)
    store.replaceJob({
      jobId: 1n,
      job: job(1, 3),
      events: [
        { event: event('JobAttested', 11, 0) },
        { event: event('JobSettled', 11, 1), settledWei: amount },
        { event: event('JobDisputed', 21, 2), dispute: first },
      ],
    })
    expect(getJobDispute(store, { jobId: 1n }).events).toStrictEqual([first])
    store.clear()
    settle(store, 1, 11)
    expect(getJobDispute(store, { jobId: 1n }).events).toEqual([])
  })
})

describe('service history', () => {
  const registered = (blockNumber: number, key: string): ServiceEvent => ({
    event: 'ServiceRegistered',
    blockNumber: String(blockNumber),
    transactionHash: `0x${blockNumber.toString(16).padStart(64, '0')}`,
    logIndex: 0,
    timestamp: String(1_700_000_000 + blockNumber),
    signingAddress: key as ServiceEvent['signingAddress'] & string,
  })
  const rotated = (blockNumber: number, from: string, to: string): ServiceEvent => ({
    ...registered(blockNumber, to),
    event: 'SigningAddressRotated',
    previousSigningAddress: from as ServiceEvent['signingAddress'] & string,
  })
  const keys = ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC']
  const service = ServiceSchema.parse({
    serviceId: '1', inftTokenId: '1', seller, capabilityHash: `0x${'11'.repeat(32)}`, modelId: 'm',
    modelCommitment: `0x${'22'.repeat(32)}`, providerAddress: seller, signingAddress: keys[1], providerIdentity: 'p',
    providerType: 'centralized', targetSeparated: false, pricePerCall: '1', maxInputBytes: '1', registeredAt: '1', active: true,
  })

  test('events are kept oldest first, a log applied twice once, and a rollback drops what lies above the ancestor', () => {
    const store = newStore()
    store.putService({ serviceId: 1n, service, block: 9n, registeredBlock: 5n })
    store.addServiceEvent({ serviceId: 1n, event: rotated(9, keys[0]!, keys[1]!) })
    store.addServiceEvent({ serviceId: 1n, event: registered(5, keys[0]!) })
    store.addServiceEvent({ serviceId: 1n, event: registered(5, keys[0]!) })
    const version = store.version
    expect(getServiceEvents(store, { serviceId: 1n }).events.map(({ event }) => event)).toEqual(['ServiceRegistered', 'SigningAddressRotated'])
    store.rollback({ number: 7n, hash: `0x${'00'.repeat(32)}` })
    expect(getServiceEvents(store, { serviceId: 1n })).toEqual({ count: 1, events: [registered(5, keys[0]!)] })
    expect(store.staleServiceIds.has(1n)).toBe(true)
    // What the reader returns changed, so the version (the ETag) did too.
    expect(store.version).toBeGreaterThan(version)
    store.rollback({ number: 4n, hash: `0x${'00'.repeat(32)}` })
    expect(() => getServiceEvents(store, { serviceId: 1n })).toThrow(/1/)
  })

  test('an event for a service not stored is refused', () => {
    expect(() => newStore().addServiceEvent({ serviceId: 2n, event: registered(5, keys[0]!) })).toThrow(RangeError)
  })
})

describe('transactions', () => {
  // The event helper's hashes all start with zeros: every one shares the index's slot, so each
  // lookup must tell them apart by the full hash.
  const hashOf = (blockNumber: number): string => `0x${blockNumber.toString(16).padStart(64, '0')}`
  const lookup = (store: Store, blockNumber: number) => {
    try {
      return getTransaction(store, { transactionHash: hashOf(blockNumber) }).events.map(({ event, jobId }) => `${event}#${jobId}`)
    } catch (error) {
      return (error as Error).name
    }
  }

  test('default: a transaction answers with its events of every job it touched, and only its own', () => {
    const store = newStore()
    for (const jobId of [1, 2]) {
      store.putJob({ jobId: BigInt(jobId), job: job(jobId) })
      store.addJobEvent({ jobId: BigInt(jobId), event: event('JobCreated', 5, jobId) })
    }
    settle(store, 1, 9)
    expect(lookup(store, 5)).toEqual(['JobCreated#1', 'JobCreated#2'])
    expect(lookup(store, 9)).toEqual(['JobAttested#1', 'JobSettled#1'])
    expect(lookup(store, 7)).toBe('TransactionNotFoundError')
    expect(getTransaction(store, { transactionHash: hashOf(9).toUpperCase().replace('0X', '0x') })).toMatchObject({
      transactionHash: hashOf(9),
      blockNumber: '9',
      timestamp: String(1_700_000_009),
      count: 2,
    })
  })

  test('a rollback, a repair and a deep reorg take the transactions of the events they drop with them', () => {
    const store = newStore()
    store.putJob({ jobId: 1n, job: job(1) })
    store.addJobEvent({ jobId: 1n, event: event('JobCreated', 5, 0) })
    store.putJob({ jobId: 2n, job: job(2) })
    store.addJobEvent({ jobId: 2n, event: event('JobCreated', 12, 0) })
    settle(store, 1, 11)
    store.rollback({ number: 10n, hash: `0x${'01'.repeat(32)}` })
    expect([lookup(store, 5), lookup(store, 11), lookup(store, 12)]).toEqual([['JobCreated#1'], 'TransactionNotFoundError', 'TransactionNotFoundError'])
    store.replaceJob({ jobId: 1n, job: job(1, 3), events: [{ event: event('JobCreated', 6, 0) }] })
    expect([lookup(store, 5), lookup(store, 6)]).toEqual(['TransactionNotFoundError', ['JobCreated#1']])
    store.clear()
    expect(lookup(store, 6)).toBe('TransactionNotFoundError')
  })

  test('registry events name their service, and a rollback drops them too', () => {
    const store = newStore()
    const service = ServiceSchema.parse({
      serviceId: '3', inftTokenId: '1', seller, capabilityHash: `0x${'11'.repeat(32)}`, modelId: 'm',
      modelCommitment: `0x${'22'.repeat(32)}`, providerAddress: seller, signingAddress: seller, providerIdentity: 'p',
      providerType: 'centralized', targetSeparated: false, pricePerCall: '1', maxInputBytes: '1', registeredAt: '1', active: false,
    })
    const serviceEvent = (name: ServiceEvent['event'], blockNumber: number): ServiceEvent => ({
      event: name, blockNumber: String(blockNumber), transactionHash: hashOf(blockNumber) as ServiceEvent['transactionHash'], logIndex: 0,
      timestamp: String(1_700_000_000 + blockNumber),
    })
    store.putService({ serviceId: 3n, service, block: 9n, registeredBlock: 5n })
    store.addServiceEvent({ serviceId: 3n, event: serviceEvent('ServiceRegistered', 5) })
    store.addServiceEvent({ serviceId: 3n, event: serviceEvent('ServiceDelisted', 9) })
    expect(getTransaction(store, { transactionHash: hashOf(9) }).events).toEqual([{ event: 'ServiceDelisted', logIndex: 0, serviceId: '3' }])
    store.rollback({ number: 7n, hash: `0x${'00'.repeat(32)}` })
    expect(() => getTransaction(store, { transactionHash: hashOf(9) })).toThrow(/could not be found/)
    expect(getTransaction(store, { transactionHash: hashOf(5) }).events).toEqual([{ event: 'ServiceRegistered', logIndex: 0, serviceId: '3' }])
  })
})

describe('job indexes', () => {
  const otherBuyer = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
  const ofBuyer = (id: number, buyer: string, serviceId = '1'): Job => ({ ...job(id), buyer: buyer as Job['buyer'], serviceId })
  const ids = (jobs: readonly { job: Job }[]): number[] => jobs.map(({ job }) => Number(job.jobId))
  const filled = (): Store => {
    const store = newStore()
    for (let id = 1; id <= 6; id += 1) {
      store.putJob({ jobId: BigInt(id), job: ofBuyer(id, id % 2 === 0 ? otherBuyer : job(id).buyer, String(1 + (id % 3))) })
      store.addJobEvent({ jobId: BigInt(id), event: event('JobCreated', 10 + id, 0) })
    }
    return store
  }

  test('default: by buyer (any case), seller, service and state, each ascending by id', () => {
    const store = filled()
    expect(ids(store.buyerJobs(otherBuyer.toLowerCase()))).toEqual([2, 4, 6])
    expect(ids(store.buyerJobs(job(1).buyer))).toEqual([1, 3, 5])
    expect(ids(store.sellerJobs(seller.toUpperCase().replace('0X', '0x')))).toEqual([1, 2, 3, 4, 5, 6])
    expect(ids(store.serviceJobs(1n))).toEqual([3, 6])
    expect(ids(store.serviceJobs(2n))).toEqual([1, 4])
    expect(ids(store.stateJobs(0))).toEqual([1, 2, 3, 4, 5, 6])
    expect(store.stateJobs(3)).toEqual([])
    expect(store.buyerJobs(`0x${'0'.repeat(40)}`)).toEqual([])
  })

  test('a state change moves the job between the state groups, in id order', () => {
    const store = filled()
    for (const id of [4, 2]) store.putJob({ jobId: BigInt(id), job: { ...job(id, 3), buyer: otherBuyer as Job['buyer'], serviceId: String(1 + (id % 3)) } })
    expect(ids(store.stateJobs(0))).toEqual([1, 3, 5, 6])
    expect(ids(store.stateJobs(3))).toEqual([2, 4])
    expect(ids(store.buyerJobs(otherBuyer))).toEqual([2, 4, 6])
  })

  test('a repair that changes the buyer or the service moves the job too', () => {
    const store = filled()
    store.replaceJob({ jobId: 2n, job: ofBuyer(2, job(1).buyer, '9'), events: [{ event: event('JobCreated', 12, 0) }] })
    expect(ids(store.buyerJobs(otherBuyer))).toEqual([4, 6])
    expect(ids(store.buyerJobs(job(1).buyer))).toEqual([1, 2, 3, 5])
    expect(ids(store.serviceJobs(9n))).toEqual([2])
    expect(ids(store.serviceJobs(3n))).toEqual([5])
  })

  test('a rollback drops the jobs it deletes from every group; clear empties them', () => {
    const store = filled()
    store.rollback({ number: 13n, hash: `0x${'01'.repeat(32)}` })
    expect(ids(store.buyerJobs(otherBuyer))).toEqual([2])
    expect(ids(store.stateJobs(0))).toEqual([1, 2, 3])
    expect(ids(store.serviceJobs(1n))).toEqual([3])
    store.clear()
    expect([store.buyerJobs(otherBuyer), store.sellerJobs(seller), store.serviceJobs(2n), store.stateJobs(0)]).toEqual([[], [], [], []])
  })
})
