import { fileURLToPath } from 'node:url'
import { buildExplorer } from '../../explorer/buildExplorer.ts'

/**
 * Builds the explorer's assets before any test starts a REST server, which serves them: CI runs
 * on a clean clone, where explorer/dist (gitignored) does not exist yet.
 */
export default async function setup(): Promise<void> {
  await buildExplorer({ outdir: fileURLToPath(new URL('../../explorer/dist', import.meta.url)) })
}
