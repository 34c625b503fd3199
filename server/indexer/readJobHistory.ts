import { numberToHex, type Client } from 'viem'
import { getBlock } from 'viem/actions'
import { readLogs } from '../../chain/read/readLogs.ts'
import { readLogRangeHint } from '../../chain/rpc/readLogRangeHint.ts'
import { classifyRpcError } from '../../chain/rpc/classifyRpcError.ts'
import type { IndexedDeployment } from '../../config/deployment.ts'
import { ChainChangedError, LogRangeTooLargeError } from '../../errors/chain.ts'
import type { ReplaceJobParameters } from '../store/StoreWriter.ts'
import type { ScanWindow } from './createScanWindow.ts'
import { arbiterJobEvents, escrowEvents } from './marketEvents.ts'
import { isJobLog, toHistoryEntry } from './toHistoryEntry.ts'

export type ReadJobHistoryParameters = {
  /** Its escrow and arbiter are read (a job's events are theirs). */
  deployment: IndexedDeployment
  jobId: bigint
  fromBlock: bigint
  toBlock: bigint
  /** Window sizes the node accepts (shared with the scan, so a repair does not learn them again). */
  window: ScanWindow
}
export type ReadJobHistoryReturnType = ReplaceJobParameters['events']

const jobHistoryEvents = [...escrowEvents, ...arbiterJobEvents]

/**
 * Every event of one job from `fromBlock` to `toBlock`, oldest first, dated: the escrow's and the
 * arbiter's logs whose first indexed argument is the job id, read window by window. For repairs, rare, so one
 * job at a time. A log whose block changed while it was read fails with ChainChangedError.
 */
export async function readJobHistory(
  client: Client,
  { deployment, jobId, fromBlock, toBlock, window }: ReadJobHistoryParameters,
): Promise<ReadJobHistoryReturnType> {
  const jobTopic = numberToHex(jobId, { size: 32 })
  const logs = []
  let from = fromBlock
  while (from <= toBlock) {
    const size = window.size()
    const to = from + size - 1n < toBlock ? from + size - 1n : toBlock
    try {
      logs.push(...(await readLogs(client, { address: [deployment.escrow, deployment.arbiter], events: jobHistoryEvents, fromBlock: from, toBlock: to, argTopics: [jobTopic] })))
    } catch (cause) {
      const kind = classifyRpcError(cause)
      if (kind !== 'too-large' && kind !== 'timeout') throw cause
      if (window.rejected(to - from + 1n, kind === 'timeout' ? { kind: 'timeout' } : readLogRangeHint(cause))) continue
      throw new LogRangeTooLargeError({ fromBlock: from, toBlock: to, reason: kind === 'timeout' ? 'timeout' : 'refused', cause })
    }
    window.succeeded(to - from + 1n)
    from = to + 1n
  }
  const jobLogs = logs.filter(isJobLog).filter((log) => log.args.jobId === jobId)
  const headers = await Promise.all(
    [...new Set(jobLogs.map((log) => log.blockNumber))].map((blockNumber) => getBlock(client, { blockNumber })),
  )
  const byNumber = new Map(headers.map((header) => [header.number, header]))
  return jobLogs
    .toSorted((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1))
    .map((log) => {
      const header = byNumber.get(log.blockNumber)
      if (header?.hash !== log.blockHash) throw new ChainChangedError({ blockNumber: log.blockNumber })
      return toHistoryEntry({ log, timestamp: header.timestamp })
    })
}
