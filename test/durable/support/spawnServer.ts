import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export type SpawnedServer = {
  readonly process: ChildProcessWithoutNullStreams
  /** Resolves with the REST URL once the server prints it (a standby prints it when it takes over). */
  readonly url: Promise<string>
  /** Everything it wrote to stderr (its JSON log lines) so far. */
  logs(): string
  /** Resolves once /readyz answers 200. */
  ready(options?: { timeoutMs?: number }): Promise<string>
  /** kill -9: no shutdown of any kind. */
  kill9(): Promise<void>
  stop(): Promise<void>
}

const mainPath = fileURLToPath(new URL('../../../server/main.ts', import.meta.url))

/** `npm run serve -- <argv>` as a child process, as an operator runs it. */
export function spawnServer(argv: readonly string[]): SpawnedServer {
  const child = spawn(process.execPath, ['--import', 'tsx', mainPath, ...argv], { stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /serving on (https?:\/\/\S+)/.exec(out)
      if (match !== null) resolve(match[1] as string)
    })
    void exited.then(() => reject(new Error(`the server exited before serving: ${stderr.slice(-2_000)}`)))
  })
  url.catch(() => undefined)
  return {
    process: child,
    url,
    logs: () => stderr,
    async ready({ timeoutMs = 60_000 } = {}) {
      const base = await url
      for (const deadline = Date.now() + timeoutMs; ; ) {
        const status = await fetch(`${base}/readyz`).then(
          (response) => response.status,
          () => 0,
        )
        if (status === 200) return base
        if (Date.now() > deadline) throw new Error(`${base} not ready in ${timeoutMs} ms: ${stderr.slice(-2_000)}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
