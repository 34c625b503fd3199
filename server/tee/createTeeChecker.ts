import type { Service } from '../../contract/service.ts'
import type { TeeVerdict } from '../../contract/tee.ts'
import type { CheckServiceTeeReturnType } from '../../tee/checkServiceTee.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import type { TeeVerdictWriter } from '../store/StoreWriter.ts'

export type TeeCheckOutcome = CheckServiceTeeReturnType

export type CreateTeeCheckerParameters = {
  store: Pick<StoreReader, 'serviceList' | 'teeVerdict'> & TeeVerdictWriter
  /** Checks one service; never throws for what a provider serves (a hostile answer is a verdict). */
  check: (service: Service) => Promise<TeeCheckOutcome>
  /** Checks in flight at once (default 4): each holds a fetch to a seller and one to a PCCS. */
  concurrency?: number | undefined
  /**
   * How soon a service whose evidence could not be had is tried again (default 60,000 ms), well
   * before its verdict expires: a seller that was down for a minute should not wait an hour.
   */
  retryMs?: number | undefined
  now?: (() => number) | undefined
  /** A check that threw (a bug, not a provider's doing): logged, and tried again at the next look. */
  onError?: ((service: Service, error: unknown) => void) | undefined
}

export type TeeChecker = {
  /** Looks for services due a check now and starts them, up to the concurrency; resolves when they end. The caller paces the looks. */
  runDue(): Promise<void>
  /** Makes a provider's services due at once (its 0G record changed). */
  recheckProvider(providerAddress: string): void
  stop(): Promise<void>
}

const incomplete = new Set<TeeVerdict['verdict']>(['unreachable', 'acknowledged'])
/** The verdicts a quote decided (it verified, or it contradicted the service): an unreachable check does not undo them. */
const restedOnEvidence = new Set<TeeVerdict['verdict']>(['verified', 'failed'])

/**
 * Keeps every service's TEE verdict current, off the request path: a service is due when it has
 * no verdict, when its signing key is not the one its verdict judged (a rotation), when its
 * verdict expired, when its provider's record changed, and (sooner) when its evidence could not
 * be had. A new `unreachable` never replaces an unexpired verdict that rested on evidence
 * (verified or failed): the last verdict stands until it expires. It does replace `none` and
 * `acknowledged`, which rested on none: a provider that has just published a record has one.
 */
export function createTeeChecker({
  store,
  check,
  concurrency = 4,
  retryMs = 60_000,
  now = Date.now,
  onError,
}: CreateTeeCheckerParameters): TeeChecker {
  const inFlight = new Map<bigint, Promise<void>>()
  const recheck = new Set<string>()
  let stopped = false

  const isDue = (service: Service): boolean => {
    const verdict = store.teeVerdict(BigInt(service.serviceId))
    if (verdict === undefined || recheck.has(service.providerAddress.toLowerCase())) return true
    if (verdict.signingAddress.toLowerCase() !== service.signingAddress.toLowerCase()) return true
    const at = now()
    if (at >= Date.parse(verdict.expiresAt)) return true
    return incomplete.has(verdict.verdict) && at - Date.parse(verdict.checkedAt) >= retryMs
  }

  const keep = (service: Service, outcome: TeeCheckOutcome): void => {
    const serviceId = BigInt(service.serviceId)
    const last = store.teeVerdict(serviceId)
    const standing =
      outcome.verdict.verdict === 'unreachable' &&
      last !== undefined &&
      restedOnEvidence.has(last.verdict) &&
      last.signingAddress === outcome.verdict.signingAddress &&
      now() < Date.parse(last.expiresAt)
    if (!standing) store.putTeeVerdict({ serviceId, verdict: outcome.verdict, evidence: outcome.evidence })
  }

  const start = (service: Service): Promise<void> => {
    const serviceId = BigInt(service.serviceId)
    recheck.delete(service.providerAddress.toLowerCase())
    const running = check(service)
      .then(
        (outcome) => {
          if (!stopped) keep(service, outcome)
        },
        (error: unknown) => onError?.(service, error),
      )
      .finally(() => inFlight.delete(serviceId))
    inFlight.set(serviceId, running)
    return running
  }

  const runDue = async (): Promise<void> => {
    const due = store.serviceList().filter((service) => !inFlight.has(BigInt(service.serviceId)) && isDue(service))
    const started: Promise<void>[] = []
    for (const service of due) {
      while (inFlight.size >= concurrency) await Promise.race(inFlight.values())
      if (stopped) break
      started.push(start(service))
    }
    await Promise.all(started)
  }

  // One look at a time: a look started while another waits for slots would start the same services.
  let running: Promise<void> = Promise.resolve()

  return {
    runDue: () => (running = running.then(runDue)),
    recheckProvider: (providerAddress) => void recheck.add(providerAddress.toLowerCase()),
    async stop() {
      stopped = true
      await Promise.allSettled([running, ...inFlight.values()])
    },
  }
}
