import { readSyncProgress, type BackfillProgress } from '../readers/readSyncProgress.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import type { Logger } from '../../platform/logging/createLogger.ts'

export type ReportBackfillProgressParameters = {
  store: StoreReader
  logger: Logger
  /** Where the back-fill started, and the latest head the node announced, as far as known yet (see createRpcObserver). */
  firstBlock: () => bigint | undefined
  latestHead: () => bigint | undefined
  /** The node's limits in force (the eth_getLogs window, the request rate), shown with each progress line. */
  limits?: (() => Record<string, unknown>) | undefined
  /** Between two progress lines (default 5 s). */
  intervalMs?: number | undefined
  /** A terminal to draw a live bar on instead of writing progress lines (the done line is logged either way). */
  tty?: NodeJS.WriteStream | undefined
  now?: () => number
}

export type BackfillProgressReporter = {
  /** Logs the done line (once) and stops reporting. */
  finish: () => void
  /** Stops reporting without a line (the process is stopping). */
  stop: () => void
}

const barWidth = 30

/**
 * Reports the initial back-fill as it goes: a `back-fill progress` log line every few seconds
 * (blocks done of total, percent, blocks/s, jobs indexed, ETA, the node's limits in force), or a live bar redrawn in place on
 * a terminal, then one `back-fill done` line.
 */
export function reportBackfillProgress({
  store,
  logger,
  firstBlock,
  latestHead,
  limits,
  intervalMs = 5_000,
  tty,
  now = Date.now,
}: ReportBackfillProgressParameters): BackfillProgressReporter {
  const startedAt = now()
  let finished = false

  const measure = (): BackfillProgress | undefined =>
    readSyncProgress(store, { now: now(), firstBlock: firstBlock(), latestHead: latestHead(), backfillStartedAt: startedAt }).backfill

  const draw = (progress: BackfillProgress, jobs: number): void => {
    const filled = Math.round((progress.percent / 100) * barWidth)
    const eta = progress.etaSeconds === undefined ? '' : `, ETA ${progress.etaSeconds} s`
    tty?.write(
      `\r\x1b[K[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${progress.percent}% ` +
        `${progress.blocksDone}/${progress.blocksTotal} blocks, ${progress.blocksPerSecond} blocks/s, ${jobs} jobs${eta}`,
    )
  }

  const tick = (): void => {
    if (finished || store.sync.backfilledAt !== undefined) return
    const progress = measure()
    if (progress === undefined) return
    const jobs = store.jobList.length
    const { blocksDone, blocksTotal, percent, blocksPerSecond, etaSeconds } = progress
    if (tty === undefined) logger.info({ blocksDone, blocksTotal, percent, blocksPerSecond, jobs, etaSeconds, ...limits?.() }, 'back-fill progress')
    else draw(progress, jobs)
  }
  const timer = setInterval(tick, tty === undefined ? intervalMs : Math.min(intervalMs, 250))
  timer.unref()

  const stop = (): void => {
    if (finished) return
    finished = true
    clearInterval(timer)
    tty?.write('\r\x1b[K')
  }

  return {
    finish() {
      if (finished) return
      const progress = measure()
      stop()
      logger.info(
        { blocks: progress?.blocksTotal, seconds: (now() - startedAt) / 1000, blocksPerSecond: progress?.blocksPerSecond, jobs: store.jobList.length },
        'back-fill done',
      )
    },
    stop,
  }
}
