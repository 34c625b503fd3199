import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
/** The product: what users run and import. Tests and benches are measured by what they check. */
const productFolders = ['bin', 'build', 'chain', 'client', 'config', 'contract', 'deploy', 'devnet', 'errors', 'explorer', 'mcp', 'platform', 'server']
const maximumLines = 120

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

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText(source)
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source)
  return '(anonymous)'
}

function longFunctions(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const lines = last - first + 1
      if (lines > maximumLines) found.push(`${relative(root, path)}:${first + 1} ${nameOf(node, source)} is ${lines} lines`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('the product reads a function at a time', () => {
  it(`has no function over ${maximumLines} lines`, () => {
    const sources = productFolders.flatMap((folder) => listSources(join(root, folder)))
    expect(sources.length).toBeGreaterThan(100)
    expect(sources.flatMap(longFunctions)).toEqual([])
  })
})
