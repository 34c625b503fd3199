import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listProductSources, root } from './support/listProductSources.ts'

/** Entry points wire the parts, so they alone may import across the rooms below. */
const entryPoints = new Set([
  'server/main.ts',
  'server/startRestIndexer.ts',
  'mcp/hosted/main.ts',
  'mcp/stdio/main.ts',
  'devnet/start.ts',
  'devnet/startDevnet.ts',
  'devnet/restComponent.ts',
  'devnet/mcpComponent.ts',
  'devnet/seller/main.ts',
])

/**
 * Who may not import what (paths from the repository's root, by prefix). Data flows one way:
 * chain → indexer → store → readers → HTTP / MCP / explorer, and every server builds on platform/.
 */
const forbidden: readonly { importer: string; target: string; allowed?: readonly string[]; why: string }[] = [
  { importer: 'platform/', target: 'server/', why: 'platform/ is what every server shares; it knows none of them' },
  { importer: 'platform/', target: 'mcp/', why: 'platform/ is what every server shares; it knows none of them' },
  { importer: 'platform/', target: 'devnet/', why: 'platform/ is what every server shares; it knows none of them' },
  {
    importer: 'tee/',
    target: 'platform/',
    allowed: ['platform/fetch/'],
    why: "tee/ fetches providers' evidence as run fetches sellers' outputs (platform/fetch), and knows no server",
  },
  ...['chain/', 'contract/', 'config/', 'errors/', 'tee/'].flatMap((importer) =>
    ['server/', 'mcp/', 'devnet/', 'platform/'].map((target) => ({ importer, target, why: 'the shared layers below the servers know no server' })),
  ),
  {
    importer: 'server/indexer/',
    target: 'server/',
    allowed: ['server/indexer/', 'server/store/StoreReader.ts', 'server/store/StoreWriter.ts'],
    why: 'the indexer writes through StoreWriter and reads through StoreReader, nothing else of the server',
  },
  {
    importer: 'server/readers/',
    target: 'server/',
    allowed: ['server/readers/', 'server/store/StoreReader.ts'],
    why: 'readers read the store through StoreReader',
  },
  { importer: 'server/store/createStore.ts', target: 'server/', allowed: ['server/store/', 'server/durable/createChangeTracker.ts', 'server/durable/createStoreSnapshots.ts'], why: "the store's composition wires in the durable store's snapshots and change tracking, nothing else of the server" },
  { importer: 'server/store/', target: 'server/', allowed: ['server/store/'], why: 'the store knows neither its writers nor its readers' },
  {
    importer: 'mcp/',
    target: 'server/',
    allowed: ['server/store/StoreReader.ts', 'server/readers/'],
    why: 'the MCP servers read the index through StoreReader and the readers',
  },
  { importer: 'devnet/seller/', target: 'server/', why: 'the seller builds on platform/, not on the REST indexer' },
  { importer: 'devnet/seller/', target: 'mcp/', why: 'what the seller shares with run lives in contract/' },
]

/** The imports of `text`, a file at `importer` (from the root), that its rooms' rules forbid. */
function crossingsOf(importer: string, text: string): string[] {
  if (entryPoints.has(importer)) return []
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].flatMap(([, specifier]) => {
    const target = relative(root, resolve(root, dirname(importer), specifier as string))
    // The rule of the most specific importer decides: a file's own rule may allow what its folder's forbids.
    const rule = forbidden
      .filter((rule) => importer.startsWith(rule.importer) && target.startsWith(rule.target))
      .sort((a, b) => b.importer.length - a.importer.length)[0]
    if (rule === undefined || rule.allowed?.some((allowed) => target.startsWith(allowed))) return []
    return [`${importer} imports ${target}: ${rule.why}`]
  })
}

describe('rooms by role', () => {
  it('nothing below the entry points reaches sideways', () => {
    const sources = listProductSources()
    expect(sources.length).toBeGreaterThan(100)
    expect(sources.flatMap((path) => crossingsOf(relative(root, path), readFileSync(path, 'utf8')))).toEqual([])
  })

  it.each([
    ['server/indexer/scanRange.ts', "import { createStore } from '../store/createStore.ts'", 1],
    ['server/indexer/scanRange.ts', "import type { StoreWriter } from '../store/StoreWriter.ts'", 0],
    ['server/store/createJobRecords.ts', "import { createStoreSnapshots } from '../durable/createStoreSnapshots.ts'", 1],
    ['server/store/createStore.ts', "import { createStoreSnapshots } from '../durable/createStoreSnapshots.ts'", 0],
    ['platform/http/hardenServer.ts', "import type { StoreReader } from '../../server/store/StoreReader.ts'", 1],
    ['mcp/hosted/buildMcpApp.ts', "import { hardenServer } from '../../server/http/buildApp.ts'", 1],
    ['devnet/seller/serveOutputs.ts', "export { outputRequestMessage } from '../../mcp/run/signOutputRequest.ts'", 1],
    ['server/main.ts', "import { startHostedMcpServer } from '../mcp/hosted/startHostedMcpServer.ts'", 0],
  ])('%s: %s is %i crossing', (importer, text, count) => {
    expect(crossingsOf(importer, text)).toHaveLength(count)
  })
})
