/** The largest unit that fits, in seconds; a month and a year as their average lengths. */
const units = [
  ['year', 31_557_600],
  ['month', 2_629_800],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
] as const satisfies readonly (readonly [Intl.RelativeTimeFormatUnit, number])[]

// "1 day ago", never "yesterday": the unit counts elapsed time, not calendar days.
const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'always' })
// Seconds say "now" for 0, where always would say "in 0 seconds".
const formatSeconds = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })

/** "3 minutes ago", "in 2 hours": `seconds` (unix) from `nowMs`, in whole units, rounded toward zero. */
export function describeRelativeTime(seconds: number, nowMs: number): string {
  const difference = seconds - Math.floor(nowMs / 1000)
  for (const [unit, length] of units) if (Math.abs(difference) >= length) return format.format(Math.trunc(difference / length), unit)
  return formatSeconds.format(difference, 'second')
}
