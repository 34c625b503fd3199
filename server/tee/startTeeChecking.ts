import type { Service } from '../../contract/service.ts'
import type { Logger } from '../../platform/logging/createLogger.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import type { TeeVerdictWriter } from '../store/StoreWriter.ts'
import { createTeeChecker, type TeeCheckOutcome } from './createTeeChecker.ts'
import type { ProviderRecordFollower } from './followProviderRecords.ts'

export type StartTeeCheckingParameters = {
  store: Pick<StoreReader, 'serviceList' | 'teeVerdict'> & TeeVerdictWriter
  check: (service: Service) => Promise<TeeCheckOutcome>
  /** Follows the 0G records, calling back with each changed record's provider; undefined where no 0G contract is configured. */
  followRecords: ((onChange: (providerAddress: string) => void) => ProviderRecordFollower) | undefined
  log: Logger
  /** Between two looks for due services and changed records (default 5,000 ms). */
  intervalMs?: number | undefined
}

export type StartTeeCheckingReturnType = { stop: () => Promise<void> }

/**
 * Checks every indexed service's TEE in the background, a look every `intervalMs`: the changed
 * provider records first, then the services due (createTeeChecker). Nothing here is on a
 * request's path: readers serve the last verdict written.
 */
export function startTeeChecking({ store, check, followRecords, log, intervalMs = 5_000 }: StartTeeCheckingParameters): StartTeeCheckingReturnType {
  const checker = createTeeChecker({
    store,
    check,
    onError: (service, error) => log.error({ serviceId: service.serviceId, err: error instanceof Error ? error.message : String(error) }, 'tee check failed'),
  })
  const follower = followRecords?.((provider) => {
    log.info({ provider }, '0G provider record changed: checking its services again')
    checker.recheckProvider(provider)
  })
  let looking: Promise<void> | undefined
  const look = async (): Promise<void> => {
    await follower?.poll().catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'reading 0G provider records failed, retrying'))
    await checker.runDue()
  }
  const tick = () => {
    looking ??= look().finally(() => (looking = undefined))
  }
  tick()
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await checker.stop()
      await looking
    },
  }
}
