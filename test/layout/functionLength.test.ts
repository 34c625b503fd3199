import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { listProductSources, root } from './support/listProductSources.ts'

const maximumLines = 120

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
    const sources = listProductSources()
    expect(sources.length).toBeGreaterThan(100)
    expect(sources.flatMap(longFunctions)).toEqual([])
  })
})
