import { useEffect, useState } from 'preact/hooks'

/** How often relative times are brought up to date: they show seconds under a minute. */
const tickMs = 1_000

const listeners = new Set<(now: number) => void>()
let timer: ReturnType<typeof setInterval> | undefined

/**
 * The current time (epoch ms), re-rendering the caller once a second. One timer serves every
 * caller on the page and stops when the last one unmounts, so a table of a thousand times costs
 * one timer, not a thousand.
 */
export function useNow(): number {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    listeners.add(setNow)
    timer ??= setInterval(() => {
      const at = Date.now()
      for (const listener of listeners) listener(at)
    }, tickMs)
    return () => {
      listeners.delete(setNow)
      if (listeners.size > 0) return
      clearInterval(timer)
      timer = undefined
    }
  }, [])
  return now
}
