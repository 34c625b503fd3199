import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const productFolders = ['bin', 'build', 'chain', 'client', 'config', 'contract', 'deploy', 'devnet', 'errors', 'explorer', 'mcp', 'platform', 'server']

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
  ...['chain/', 'contract/', 'config/', 'errors/'].flatMap((importer) =>
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

function listSources(folder: string): string[] {
  let entries
  try {
    entries = readdirSync(folder, { withFileTypes: true })
  } catch {
    return []
  }
  return entries.flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'artifacts' ? [] : listSources(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

function crossings(path: string): string[] {
  const importer = relative(root, path)
  if (entryPoints.has(importer)) return []
  const text = readFileSync(path, 'utf8')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].flatMap(([, specifier]) => {
    const target = relative(root, resolve(dirname(path), specifier as string))
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
    const sources = productFolders.flatMap((folder) => listSources(join(root, folder)))
    expect(sources.length).toBeGreaterThan(100)
    expect(sources.flatMap(crossings)).toEqual([])
  })

  it('catches a sideways import', () => {
    const rule = forbidden.find(({ importer }) => importer === 'server/indexer/')
    expect(rule?.allowed?.some((allowed) => 'server/store/createStore.ts'.startsWith(allowed))).toBe(false)
  })
})
