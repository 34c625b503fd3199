import type { ChildProcessByStdio } from 'node:child_process'
import type { Readable } from 'node:stream'

/** Enough of a node's output to explain a failed start, not the whole account listing. */
const outputTailChars = 8_000
/** How long a node has to exit after SIGTERM before it is killed. */
const killAfterMs = 5_000

export type WatchNodeProcessParameters = {
  /** Called with the output's tail after every chunk, e.g. to spot a line saying the node listens. */
  onOutput?: (output: string) => void
}

export type NodeProcess = {
  /** The last 8,000 characters the node wrote to stdout and stderr (and a spawn error). */
  readonly output: string
  readonly hasExited: boolean
  /** Settles when the process ends, whether through `stop()` or not. */
  exited: Promise<void>
  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop: () => Promise<void>
}

/** Follows a spawned node process (hardhat, anvil): its output's tail, its exit, and a stop that always ends it. */
export function watchNodeProcess(child: ChildProcessByStdio<null, Readable, Readable>, { onOutput }: WatchNodeProcessParameters = {}): NodeProcess {
  let output = ''
  let hasExited = false
  const collect = (chunk: Buffer | string): void => {
    output = (output + chunk.toString()).slice(-outputTailChars)
    onOutput?.(output)
  }
  child.stdout.on('data', collect)
  child.stderr.on('data', collect)
  child.once('error', (error) => collect(String(error)))
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  void exited.then(() => {
    hasExited = true
  })
  return {
    get output() {
      return output
    },
    get hasExited() {
      return hasExited
    },
    exited,
    stop: async () => {
      if (hasExited) return
      child.kill('SIGTERM')
      const killTimer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
      await exited
      clearTimeout(killTimer)
    },
  }
}
