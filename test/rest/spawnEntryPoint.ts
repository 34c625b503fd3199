import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

export type SpawnedEntryPoint = {
  child: ChildProcessWithoutNullStreams
  output: () => string
  /** Resolves once the output matches, rejects if the process exits first or `timeoutMs` passes. */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<void>
  /** SIGINT, then the exit code. */
  stop: () => Promise<number | null>
}

/**
 * An entry point as an operator runs it, without npm in between (so a signal reaches it): `node`
 * and its arguments, in the project folder, with none of the settings' environment variables a
 * developer's shell may hold, so the defaults are what it runs with; `env` adds the variables it
 * needs (a seller's keys).
 */
export function spawnEntryPoint(args: readonly string[], { env: given = {} }: { env?: Record<string, string> } = {}): SpawnedEntryPoint {
  const env = { ...process.env }
  for (const name of ['PORT', 'HOST', 'MCP_PORT', 'SELLER_PORT', 'RPC_URL', 'MARKET_NETWORK', 'DEPLOYMENT_PATH', 'RATE_LIMIT', 'MAX_CLIENT_CONNECTIONS', 'TRUST_PROXY', 'INDEXER_URL']) delete env[name]
  Object.assign(env, given)
  const child = spawn(process.execPath, args, { cwd: projectRoot, env })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const waitFor = async (pattern: RegExp, timeoutMs = 120_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs
    while (!pattern.test(output)) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited early:\n${output}`)
      if (Date.now() > deadline) throw new Error(`${args.join(' ')} did not print ${pattern} within ${timeoutMs} ms:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null) child.kill('SIGINT')
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    const code = await exited
    clearTimeout(timer)
    return code
  }
  return { child, output: () => output, waitFor, stop }
}
