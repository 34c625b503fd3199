import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that took longest in a CI run with every hardhat node held to 35 % of a core, longest
 * first (docs/benchmarks.md, "The suite's time"). A hint for the order only: a file missing from it,
 * or listed and gone, changes nothing but the time.
 */
export const slowestFiles = [
  'test/durable/killNine.test.ts',
  'test/package/package.test.ts',
  'test/package/quietInstall.test.ts',
  'test/mcp/run.test.ts',
  'test/indexer/fullNode.test.ts',
  'test/durable/dataDir.test.ts',
  'test/devnet/start.test.ts',
  'test/attestation/differential.test.ts',
  'test/seller/main.test.ts',
  'test/indexer/stalledNode.test.ts',
  'test/explorer/teeVerdicts.test.ts',
  'test/mcp/hosted.test.ts',
  'test/seller/indexerFeed.test.ts',
  'test/explorer/phoneLayout.test.ts',
  'test/mcp/spendLimits.test.ts',
  'test/durable/load.test.ts',
  'test/indexer/longFaultRun.test.ts',
  'test/indexer/longRetryAfter.test.ts',
  'test/durable/postgres.test.ts',
  'test/config/refuseUnsupportedNode.test.ts',
]

/**
 * Runs the slowest files first, then the others as vitest would. vitest orders by the durations
 * it cached from the last run, but CI runs a clean clone, where it has none and starts the largest
 * files first: a slow small file (killNine) then starts last and the suite waits for it alone.
 */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (file: TestSpecification) => {
      const index = slowestFiles.indexOf(relative(this.ctx.config.root, file.moduleId))
      return index === -1 ? slowestFiles.length : index
    }
    return sorted.map((file, order) => ({ file, order })).sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order).map(({ file }) => file)
  }
}
