import { readFile } from 'node:fs/promises'

/** A process's peak resident set so far (`VmHWM` in `/proc/<pid>/status`), in bytes. Linux only. */
export async function readPeakResidentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status)
  if (match === null) throw new Error(`/proc/${pid}/status has no VmHWM line.`)
  return Number(match[1]) * 1_024
}
