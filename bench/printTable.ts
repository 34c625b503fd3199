import type { BenchResults } from './BenchResults.ts'
import type { CeilingComparison } from './compareWithCeiling.ts'
import type { SkippableStage } from './parseBenchArgs.ts'
import { describeLoopDelay } from './watchEventLoop.ts'

/** The bench report as plain-text tables, ready for stdout. */
export function printTable(results: BenchResults): string {
  const { machine, options, generation, backfill, lag, rest, mcp, memory, fullNode, targets } = results
  const lines: string[] = []
  const section = (title: string): void => {
    lines.push('', title)
  }
  const skipped = (stage: SkippableStage): boolean => {
    if (options.skip.includes(stage)) lines.push(`   skipped (--skip ${stage})`)
    return options.skip.includes(stage)
  }
  const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MB`
  const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : '-')
  const int = (value: number): string => Math.round(value).toLocaleString('en-US')

  lines.push(
    `figures from a shared 2-core machine (${machine.cpus} × ${machine.cpuModel}, load average ${machine.loadAverage.map((load) => load.toFixed(1)).join(' ')} at start, Node ${machine.node}): other work on it moves them run to run`,
    `${options.quick ? 'quick' : 'default'} run: ${int(options.jobs)} jobs, ${options.connections} connections, ${options.warmupSec} s warm-up + ${options.durationSec} s per endpoint`,
  )

  section('Job generation (not a target: the bench devnet)')
  lines.push(
    ...table(
      ['jobs', 'services', 'transactions', 'blocks', 'events', 'seconds', 'outcomes'],
      [
        [
          int(generation.jobs),
          String(generation.services),
          int(generation.transactions),
          int(generation.blocks),
          int(generation.events),
          (generation.durationMs / 1000).toFixed(1),
          Object.entries(generation.outcomes)
            .map(([outcome, count]) => `${outcome} ${count}`)
            .join(', '),
        ],
      ],
    ),
  )

  const latencyNote = backfill.addedLatencyMs > 0 ? `, ${backfill.addedLatencyMs} ms added to each answer` : ''
  section(`1. Back-fill (fresh indexer, deploy block to head, through a counting RPC proxy${latencyNote})`)
  lines.push(
    ...table(
      ['jobs', 'events', 'seconds', 'jobs/s', 'events/s', 'HTTP requests', 'JSON-RPC calls', 'round trips', 'requests/job', 'calls/job', 'matches plan'],
      [
        [
          int(backfill.jobs),
          int(backfill.events),
          backfill.seconds.toFixed(2),
          int(backfill.jobsPerSec),
          int(backfill.eventsPerSec),
          int(backfill.httpRequests),
          int(backfill.rpcCalls),
          int(backfill.roundTrips),
          backfill.httpRequestsPerJob.toFixed(4),
          backfill.rpcCallsPerJob.toFixed(3),
          backfill.consistent ? 'yes' : `NO: ${backfill.mismatch}`,
        ],
      ],
    ),
    `   calls by method: ${Object.entries(backfill.methods)
      .map(([method, count]) => `${method} ${int(count)}`)
      .join(', ')}`,
    `   event loop blocked while back-filling: ${describeLoopDelay(backfill.loopDelay)}`,
    '   round trips: requests sent with none in flight, each waiting out the node\'s latency (--rpc-latency; docs/benchmarks.md, "Cold back-fill")',
  )

  section(`2. Lag, settlement receipt to GET /v1/jobs/:id showing Settled (${options.lagJobs} jobs, one every ${options.lagPaceMs} ms)`)
  if (!skipped('lag'))
    lines.push(
      ...table(
        ['setting', 'samples', 'p50', 'p95', 'max', 'missed'],
        lag.map((row) => [row.label, String(row.samples), ms(row.p50Ms), ms(row.p95Ms), ms(row.maxMs), String(row.missed)]),
      ),
    )

  const loadRows = (rows: readonly CeilingComparison[]): string[][] =>
    rows.map((row) => [
      row.name,
      int(row.bodyBytes),
      int(row.ours.requestsPerSec),
      ms(row.ours.p50Ms),
      ms(row.ours.p99Ms),
      int(row.ours.cpuMicrosPerRequest),
      int(row.ceiling.requestsPerSec),
      ms(row.ceiling.p50Ms),
      ms(row.ceiling.p99Ms),
      int(row.ceiling.cpuMicrosPerRequest),
      `${(row.ratio * 100).toFixed(0)} %`,
      `${((row.ceiling.cpuMicrosPerRequest / row.ours.cpuMicrosPerRequest) * 100).toFixed(0)} %`,
      String(row.ours.failures + row.ceiling.failures),
    ])
  const loadHeaders = [
    'endpoint',
    'body B',
    'req/s',
    'p50',
    'p99',
    'CPU µs/req',
    'ceiling req/s',
    'p50',
    'p99',
    'CPU µs/req',
    'ours/ceiling req/s',
    'by CPU',
    'failures',
  ]
  section(`3. REST with the ${int(options.jobs)}-job store loaded (autocannon in the bench process, server in its own)`)
  if (!skipped('rest')) {
    lines.push('   "by CPU": ceiling CPU per request over ours, the ratio to expect when the server has a core to itself')
    lines.push(...table(loadHeaders, loadRows(rest)))
  }
  section(
    "4. MCP tools/call on the hosted server (stateless Streamable HTTP): in the indexer's process, apart through --indexer-url " +
      "(CPU of both processes), and reading the chain per call (CPU of the MCP process; the node's not counted)",
  )
  if (!skipped('mcp')) lines.push(...table(loadHeaders, loadRows(mcp)))

  section('5. Memory of the server under test (after a full GC)')
  lines.push(
    ...table(
      ['when', 'RSS', 'heap used', 'heap total', 'external'],
      [
        ['before indexing', mb(memory.baseline.rss), mb(memory.baseline.heapUsed), mb(memory.baseline.heapTotal), mb(memory.baseline.external)],
        [`${int(memory.jobs)} jobs indexed`, mb(memory.loaded.rss), mb(memory.loaded.heapUsed), mb(memory.loaded.heapTotal), mb(memory.loaded.external)],
        ['after the load stages', mb(memory.now.rss), mb(memory.now.heapUsed), mb(memory.now.heapTotal), mb(memory.now.external)],
      ],
    ),
    `   per job: ${int(memory.heapPerJobBytes)} B heap, ${int(memory.rssPerJobBytes)} B RSS`,
  )

  section('6. A mainnet-sized history through a public full node (state of its last blocks only, a range limit, a rate limit)')
  if (!skipped('fullnode') && fullNode !== null) {
    const { learned } = fullNode
    lines.push(
      ...table(
        ['rate', 'blocks', 'jobs', 'node limits', 'time to ready', 'floor', 'ratio', 'eth_getLogs', 'calls', 'refused', 'peak calls/s', 'largest batch', 'consistent'],
        [
          [
            `--rpc-rate-limit ${fullNode.callsPerSecond}`,
            int(fullNode.blocks),
            int(fullNode.jobs),
            `${fullNode.stateBlocks} blocks of state, ${int(fullNode.logRange)}-block ranges, ${fullNode.callsPerSecond}/s`,
            `${fullNode.seconds.toFixed(1)} s`,
            `${fullNode.floorSeconds.toFixed(1)} s`,
            `${fullNode.ratioToFloor.toFixed(2)} ×`,
            int(fullNode.getLogs),
            int(fullNode.rpcCalls),
            `${fullNode.stateRefused} state, ${fullNode.rateLimited} rate`,
            String(fullNode.peakCallsPerSecond),
            '',
            fullNode.consistent ? 'yes' : `NO: ${fullNode.mismatch}`,
          ],
          [
            'learned from 429s',
            int(fullNode.blocks),
            int(fullNode.jobs),
            `the same, refusing with HTTP 429, Retry-After: 1, one error object`,
            `${learned.seconds.toFixed(1)} s`,
            `${fullNode.floorSeconds.toFixed(1)} s`,
            `${learned.ratioToFloor.toFixed(2)} ×`,
            int(learned.getLogs),
            int(learned.rpcCalls),
            `${learned.stateRefused} state, ${learned.rateLimited} rate`,
            String(learned.peakCallsPerSecond),
            String(learned.largestBatch),
            learned.consistent ? 'yes' : `NO: ${learned.mismatch}`,
          ],
        ],
      ),
      `   floor: blocks ÷ range ÷ rate, the time the node's eth_getLogs alone take at its rate; calls served (refused ones left out); --rpc-rate-limit run's calls by method: ${JSON.stringify(fullNode.methods)}`,
    )
  }

  section('Targets')
  lines.push(...table(['target', 'wanted', 'measured', 'met'], targets.map((check) => [check.name, check.target, check.actual, check.met ? 'yes' : 'NO'])))
  return lines.join('\n')
}

/** Columns padded to their widest cell, the first left-aligned, under a header and a rule. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    `   ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')}`.trimEnd()
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)]
}
