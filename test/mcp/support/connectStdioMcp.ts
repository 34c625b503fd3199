import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import { fileURLToPath } from 'node:url'

export const projectRoot = fileURLToPath(new URL('../../..', import.meta.url))
export const binPath = fileURLToPath(new URL('../../../bin/tee-market-mcp.js', import.meta.url))

export type StdioMcp = {
  client: Client
  /** Everything the server wrote to stderr so far (JSON log lines). */
  stderr: () => string
  /** The messages of its log lines so far, one a line. */
  logMessages: () => string
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>
  close: () => Promise<void>
  /** Kills the server process with SIGKILL, as a crash would end it: no cleanup runs. */
  kill: () => void
}

export type ConnectStdioMcpParameters = {
  env: Record<string, string>
  /** The person's side of MCP elicitation: given, the client declares the `elicitation` capability and answers with it. */
  elicit?: ((params: ElicitRequest['params']) => Promise<ElicitResult>) | undefined
}

/** Starts `bin/tee-market-mcp.js` (no arguments) through the SDK's stdio client transport. */
export async function connectStdioMcp({ env, elicit }: ConnectStdioMcpParameters): Promise<StdioMcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath],
    env,
    cwd: projectRoot,
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const client = new Client({ name: 'stdio-test', version: '1.0.0' }, elicit === undefined ? {} : { capabilities: { elicitation: {} } })
  if (elicit !== undefined) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params))
  await client.connect(transport)
  return {
    client,
    stderr: () => stderr,
    logMessages: () =>
      stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => String((JSON.parse(line) as { msg?: unknown }).msg ?? ''))
        .join('\n'),
    call: async (name, args) =>
      (await client.callTool(
        { name, ...(args === undefined ? {} : { arguments: args }) },
        undefined,
        // `run` waits for settlement; the SDK's default request timeout is 60 s.
        { timeout: 600_000 },
      )) as CallToolResult,
    close: () => client.close(),
    kill: () => {
      if (transport.pid !== null) process.kill(transport.pid, 'SIGKILL')
    },
  }
}

export function textOf(result: CallToolResult): string {
  const [first] = result.content
  if (first?.type !== 'text') throw new Error('expected a text block')
  return first.text
}
