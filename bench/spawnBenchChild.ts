import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { BenchChildError } from '../errors/bench.ts'

const projectRoot = fileURLToPath(new URL('..', import.meta.url))

export type SpawnBenchChildParameters = {
  /** Entry file, relative to the project root (or to `cwd`). */
  entry: string
  /** Another checkout to run the entry from (its own code, its node_modules): this one by default. */
  cwd?: string | undefined
  /** Sent to the child over IPC as its first message (see receiveBenchOptions). */
  options: unknown
  /** Extra Node flags, e.g. `--expose-gc`, `--cpu-prof`. */
  nodeFlags?: readonly string[]
  /** A short name for messages, e.g. "server under test". */
  name: string
}

export type BenchChild<message extends { type: string }> = {
  /** Resolves with the next message of that type (or the first one already received and not taken). */
  next: <type extends message['type']>(type: type, timeoutMs?: number) => Promise<Extract<message, { type: type }>>
  send: (message: { type: string }) => void
  /** What the child wrote to stderr lately, for error reports. */
  output: () => string
  stop: () => Promise<void>
  pid: number | undefined
}

const outputTailChars = 4_000

/**
 * Runs a bench entry in its own Node process (TypeScript through tsx's loader) with an IPC
 * channel: the load generator and each server under test never share an event loop or a core.
 */
export function spawnBenchChild<message extends { type: string }>({
  entry,
  options,
  nodeFlags = [],
  name,
  cwd = projectRoot,
}: SpawnBenchChildParameters): BenchChild<message> {
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', entry], {
    cwd,
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production' },
  })
  let output = ''
  let partialLine = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8')
    output = (output + text).slice(-outputTailChars)
    // Its complaints (an indexer retrying a failed poll, say) belong in the bench's log.
    const lines = (partialLine + text).split('\n')
    partialLine = lines.pop() ?? ''
    for (const line of lines) if (line.trim() !== '') process.stderr.write(`bench: [${name}] ${line}\n`)
  })
  child.send({ type: 'options', options })
  const received: message[] = []
  const waiting: { type: string; resolve: (message: message) => void; reject: (error: Error) => void }[] = []
  let exited: Error | undefined

  child.on('message', (value) => {
    const message = value as message
    const index = waiting.findIndex((waiter) => waiter.type === message.type)
    if (index === -1) received.push(message)
    else waiting.splice(index, 1)[0]?.resolve(message)
  })
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = new BenchChildError(`The ${name} exited (${signal ?? `code ${code}`}).`, { details: output })
      for (const waiter of waiting.splice(0)) waiter.reject(exited)
      resolve()
    })
  })

  return {
    pid: child.pid,
    next: (type, timeoutMs = 600_000) =>
      new Promise((resolve, reject) => {
        const index = received.findIndex((message) => message.type === type)
        if (index !== -1) {
          resolve(received.splice(index, 1)[0] as Extract<message, { type: typeof type }>)
          return
        }
        if (exited !== undefined) {
          reject(exited)
          return
        }
        const timer = setTimeout(() => {
          reject(new BenchChildError(`The ${name} sent no "${type}" within ${timeoutMs} ms.`, { details: output }))
        }, timeoutMs)
        waiting.push({
          type,
          resolve: (message) => {
            clearTimeout(timer)
            resolve(message as Extract<message, { type: typeof type }>)
          },
          reject: (error) => {
            clearTimeout(timer)
            reject(error)
          },
        })
      }),
    send: (message) => {
      if (exited === undefined) child.send(message)
    },
    output: () => output,
    stop: async () => {
      if (exited !== undefined) return
      child.kill('SIGTERM')
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exit
      clearTimeout(killTimer)
    },
  }
}
