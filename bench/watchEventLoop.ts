import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'

/**
 * What the main thread did while a 10 ms timer was late: ran (the process's own work: our code,
 * a collection, PGlite), waited for a core (the machine's other processes had both), or neither
 * (asleep: a collection waiting for V8's helper threads, which wait for a core too).
 */
export type LoopStall = { lateMs: number; runningMs: number; waitingMs: number }

/** How late the event loop ran a 10 ms timer: what a request arriving then waited behind the process. */
export type LoopDelayFigures = {
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** The timer that ran latest, split (null where the thread's schedstat cannot be read: not Linux). */
  longest: LoopStall | null
  /** The lateness holding the most of the process's own work: what it held the loop for itself. */
  mostRunning: LoopStall | null
  /** The machine's 1-minute load average when the watch stopped (2 cores: above 2, threads queue for one). */
  loadAverage: number
}

export type EventLoopWatch = { stop(): LoopDelayFigures }

const resolutionMs = 10

/**
 * Watches the event loop from now until `stop`: monitorEventLoopDelay for the percentiles, and a
 * timer of its own that reads the main thread's schedstat (time on a core, time waiting for one)
 * at each run, so that a late timer can be told apart: the process's own work, or a machine too
 * busy to give it a core. On a shared machine the maximum is mostly the latter.
 */
export function watchEventLoop(): EventLoopWatch {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs })
  histogram.enable()
  let longest: LoopStall | null = null
  let mostRunning: LoopStall | null = null
  let last = { at: performance.now(), thread: readThreadTimes() }
  let timer: NodeJS.Timeout | undefined
  const tick = (): void => {
    const now = { at: performance.now(), thread: readThreadTimes() }
    if (now.thread !== undefined && last.thread !== undefined) {
      const stall = {
        lateMs: Math.max(0, now.at - last.at - resolutionMs),
        runningMs: now.thread.runningMs - last.thread.runningMs,
        waitingMs: now.thread.waitingMs - last.thread.waitingMs,
      }
      if (longest === null || stall.lateMs > longest.lateMs) longest = stall
      if (mostRunning === null || stall.runningMs > mostRunning.runningMs) mostRunning = stall
    }
    last = now
    timer = setTimeout(tick, resolutionMs)
  }
  timer = setTimeout(tick, resolutionMs)
  return {
    stop() {
      clearTimeout(timer)
      histogram.disable()
      // The histogram counts the timer's own 10 ms in every sample: only the lateness beyond it is blocking.
      const lateMs = (nanoseconds: number): number => Math.max(0, nanoseconds / 1e6 - resolutionMs)
      return {
        p50Ms: lateMs(histogram.percentile(50)),
        p99Ms: lateMs(histogram.percentile(99)),
        maxMs: lateMs(histogram.max),
        longest,
        mostRunning,
        loadAverage: loadavg()[0] ?? Number.NaN,
      }
    },
  }
}

/** The main thread's time on a core and waiting for one since it started (Linux), in ms. */
function readThreadTimes(): { runningMs: number; waitingMs: number } | undefined {
  try {
    const [running, waiting] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number)
    if (running === undefined || waiting === undefined) return undefined
    return { runningMs: running / 1e6, waitingMs: waiting / 1e6 }
  } catch {
    return undefined
  }
}

/** One line: the percentiles, what the longest stall was made of, and the stall holding the most of the process's own work. */
export function describeLoopDelay({ p50Ms, p99Ms, maxMs, longest, mostRunning, loadAverage }: LoopDelayFigures): string {
  const ms = (value: number): string => `${value.toFixed(0)} ms`
  // Ran and waited add up to the whole interval: the timer's own 10 ms and the stall.
  const split = (stall: LoopStall): string => `ran ${ms(stall.runningMs)} and waited ${ms(stall.waitingMs)} for a core`
  return [
    `p50 ${p50Ms.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms, max ${maxMs.toFixed(1)} ms`,
    longest === null ? '' : `; in the ${ms(longest.lateMs + resolutionMs)} of the longest stall the thread ${split(longest)}`,
    mostRunning === null ? '' : `; most of its own work in one stall: ${ms(mostRunning.runningMs)} (${ms(mostRunning.lateMs)} late)`,
    `; load average ${loadAverage.toFixed(1)}`,
  ].join('')
}
