import { Histogram, type Registry } from 'prom-client'
import type { ToolDispatcher } from '../server/createToolDispatcher.ts'

/**
 * The dispatcher with every `tools/call` counted by tool and outcome (`ok`, `error`: the tool
 * answered an error result, `unknown_tool`), with its latency. The series of each known tool
 * exist from the start, at zero.
 */
export function observeToolCalls(dispatcher: ToolDispatcher, { registry }: { registry: Registry }): ToolDispatcher {
  const calls = new Histogram({
    name: 'mcp_tool_call_duration_seconds',
    help: 'MCP tool calls by tool and outcome (ok, error, unknown_tool), with their latency.',
    labelNames: ['tool', 'outcome'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  })
  const known = new Set(dispatcher.tools.map((tool) => tool.name))
  for (const tool of known) calls.zero({ tool, outcome: 'ok' })
  return {
    ...dispatcher,
    async call(params, extra) {
      const end = calls.startTimer()
      const result = await dispatcher.call(params, extra)
      const tool = known.has(params.name) ? params.name : 'unknown'
      end({ tool, outcome: tool === 'unknown' ? 'unknown_tool' : result.isError === true ? 'error' : 'ok' })
      return result
    },
  }
}
