import { readdirSync } from 'node:fs'
import { join } from 'node:path'

/** The repository's root. */
export const root = join(import.meta.dirname, '..', '..', '..')

/** The product: what users run and import. Tests and benches are measured by what they check. */
const productFolders = ['bin', 'build', 'chain', 'client', 'config', 'contract', 'deploy', 'devnet', 'errors', 'explorer', 'mcp', 'platform', 'server', 'tee']

/** Every TypeScript source of the product (no declarations, no compiled artifacts), as absolute paths. */
export function listProductSources(): string[] {
  return productFolders.flatMap((folder) => listSources(join(root, folder)))
}

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
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}
