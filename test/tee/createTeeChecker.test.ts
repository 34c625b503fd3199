import { expect, test } from 'vitest'
import type { Service } from '../../contract/service.ts'
import type { TeeVerdict } from '../../contract/tee.ts'
import { createTeeChecker, type TeeCheckOutcome } from '../../server/tee/createTeeChecker.ts'
import { createStore } from '../../server/store/createStore.ts'

const keyA = '0x1111111111111111111111111111111111111111'
const keyB = '0x2222222222222222222222222222222222222222'
const provider = '0x3333333333333333333333333333333333333333'

function service(serviceId: string, signingAddress = keyA): Service {
  return {
    serviceId, inftTokenId: serviceId, seller: '0x4444444444444444444444444444444444444444', capabilityHash: `0x${'00'.repeat(32)}`,
    modelId: 'm', modelCommitment: `0x${'00'.repeat(32)}`, providerAddress: provider, signingAddress, providerIdentity: 'p',
    providerType: 't', targetSeparated: false, pricePerCall: '1', maxInputBytes: '1', registeredAt: '1', active: true,
  } as Service
}

function verdictOf(s: Service, verdict: TeeVerdict['verdict'], checkedAt: number, ttlMs: number): TeeCheckOutcome {
  return {
    verdict: {
      serviceId: s.serviceId, signingAddress: s.signingAddress, verdict, summary: verdict, checks: [],
      checkedAt: new Date(checkedAt).toISOString(), expiresAt: new Date(checkedAt + ttlMs).toISOString(),
      measurements: null, tcbStatus: null, advisoryIds: [], provider: null,
    },
    evidence: undefined,
  }
}

function setUp(answers: TeeCheckOutcome['verdict']['verdict'][], { concurrency = 4 } = {}) {
  const store = createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet' })
  let clock = 1_000_000
  const calls: string[] = []
  let active = 0
  let peak = 0
  const checker = createTeeChecker({
    store,
    retryMs: 60_000,
    concurrency,
    now: () => clock,
    check: async (s) => {
      calls.push(`${s.serviceId}:${s.signingAddress}`)
      active += 1
      peak = Math.max(peak, active)
      await new Promise((resolve) => setTimeout(resolve, 5))
      active -= 1
      return verdictOf(s, answers.shift() ?? 'verified', clock, 3_600_000)
    },
  })
  return { store, checker, calls, advance: (ms: number) => (clock += ms), peak: () => peak }
}

test('checks each service once, at most `concurrency` at a time, and again only when due', async () => {
  const { store, checker, calls, advance, peak } = setUp([], { concurrency: 2 })
  for (const id of ['1', '2', '3', '4', '5']) store.putService({ serviceId: BigInt(id), service: service(id) })
  await checker.runDue()
  expect(calls).toHaveLength(5)
  expect(peak()).toBe(2)
  expect(store.teeVerdictList().map((v) => v.serviceId)).toEqual(['1', '2', '3', '4', '5'])
  await checker.runDue()
  expect(calls).toHaveLength(5)
  advance(3_600_000)
  await checker.runDue()
  expect(calls).toHaveLength(10)
  await checker.stop()
})

test('a rotated signing key and a changed provider record make a service due at once', async () => {
  const { store, checker, calls } = setUp([])
  store.putService({ serviceId: 1n, service: service('1') })
  store.putService({ serviceId: 2n, service: service('2') })
  await checker.runDue()
  store.putService({ serviceId: 1n, service: service('1', keyB) })
  await checker.runDue()
  expect(calls.slice(2)).toEqual([`1:${keyB}`])
  checker.recheckProvider(provider.toUpperCase().replace('0X', '0x'))
  await checker.runDue()
  expect(calls.slice(3).sort()).toEqual([`1:${keyB}`, `2:${keyA}`])
  await checker.stop()
})

test('unreachable is retried after retryMs, and does not replace a verdict that has not expired', async () => {
  const { store, checker, calls, advance } = setUp(['verified', 'unreachable', 'unreachable'])
  store.putService({ serviceId: 1n, service: service('1') })
  await checker.runDue()
  expect(store.teeVerdict(1n)?.verdict).toBe('verified')
  checker.recheckProvider(provider)
  await checker.runDue()
  expect(calls).toHaveLength(2)
  expect(store.teeVerdict(1n)?.verdict).toBe('verified')
  advance(3_600_000)
  await checker.runDue()
  expect(store.teeVerdict(1n)?.verdict).toBe('unreachable')
  advance(30_000)
  await checker.runDue()
  expect(calls).toHaveLength(3)
  advance(30_000)
  await checker.runDue()
  expect(calls).toHaveLength(4)
  await checker.stop()
})

test('unreachable replaces an unexpired none or acknowledged: neither rested on evidence', async () => {
  const { store, checker } = setUp(['none', 'unreachable', 'acknowledged', 'unreachable'])
  store.putService({ serviceId: 1n, service: service('1') })
  await checker.runDue()
  expect(store.teeVerdict(1n)?.verdict).toBe('none')
  // The provider publishes a record whose URL cannot be fetched: it has a record now.
  checker.recheckProvider(provider)
  await checker.runDue()
  expect(store.teeVerdict(1n)?.verdict).toBe('unreachable')
  checker.recheckProvider(provider)
  await checker.runDue()
  expect(store.teeVerdict(1n)?.verdict).toBe('acknowledged')
  // 0G's owner withdraws the acknowledgement, the URL still down.
  checker.recheckProvider(provider)
  await checker.runDue()
  expect(store.teeVerdict(1n)?.verdict).toBe('unreachable')
  await checker.stop()
})
