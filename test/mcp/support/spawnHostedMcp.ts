import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url))

export type SpawnHostedMcpReturnType = {
  /** Base URL; the MCP endpoint is `${url}/mcp`. */
  url: string
  /** Everything the process wrote to stderr so far. */
  stderr: () => string
  stop: () => Promise<void>
}

/** Runs `mcp/hosted/main.ts` as its own process on a free port and waits for it to listen. */
export async function spawnHostedMcp({ env }: { env: Record<string, string> }): Promise<SpawnHostedMcpReturnType> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mcp/hosted/main.ts', '--mcp-port', '0'], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  let stdout = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hosted MCP did not start: ${stderr}${stdout}`)), 30_000)
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      const match = /on (http:\/\/[^\s"/]+)\/mcp/.exec(stderr)
      if (match?.[1] !== undefined) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    void exited.then(() => reject(new Error(`hosted MCP exited: ${stderr}${stdout}`)))
  })
  return {
    url,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await exited
    },
  }
}
