import { compareWithCeiling, type CompareWithCeilingReturnType, type LoadSettings, type LoadTarget } from './compareWithCeiling.ts'

export type MeasureMcpParameters = {
  /** What the server reads, appended to each figure's name: `in-process store`, `--indexer-url`, `chain per call`. */
  mode: string
  jobId: bigint
  load: LoadSettings
  serverCpu: () => Promise<number>
}

export type MeasureMcpReturnType = CompareWithCeilingReturnType

/** Streamable HTTP asks clients to accept both answer forms. */
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/**
 * `tools/call` on the hosted MCP server (stateless: each POST stands alone, no initialize), reading
 * what `mode` names, against the ceiling. `serverCpu` counts every process an answer costs.
 */
export function measureMcp(mcpUrl: string, { mode, jobId, load, serverCpu }: MeasureMcpParameters): Promise<MeasureMcpReturnType> {
  return compareWithCeiling({ origin: new URL(mcpUrl).origin, serverCpu, load, targets: mcpTargets(mcpUrl, { mode, jobId }) })
}

/** `tools/call` of get_job and list_services, each POSTed alone to the endpoint at `mcpUrl` (its path). */
export function mcpTargets(mcpUrl: string, { mode, jobId }: Pick<MeasureMcpParameters, 'mode' | 'jobId'>): LoadTarget[] {
  const { pathname } = new URL(mcpUrl)
  const call = (name: string, args: Record<string, string>): string =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
  const check = (_status: number, body: string): string | undefined =>
    !body.includes('"result"') || body.includes('"isError":true') ? body.slice(0, 300) : undefined
  return [
    { name: `tools/call get_job (${mode})`, method: 'POST', path: pathname, headers, body: call('get_job', { jobId: jobId.toString() }), check },
    { name: `tools/call list_services (${mode})`, method: 'POST', path: pathname, headers, body: call('list_services', {}), check },
  ]
}
