import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ExplorerAssetsMissingError } from '../../errors/http.ts'
import { readExplorerAssets } from '../../server/explorer/readExplorerAssets.ts'

test('default: the built assets are read (the test run builds them first)', async () => {
  const { js, css } = await readExplorerAssets()
  expect(js.length).toBeGreaterThan(0)
  expect(css).toMatch(/prefers-color-scheme: ?dark/)
})

test('unbuilt: the server refuses to start, saying how to build them', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'explorer-unbuilt-'))
  try {
    const error = await readExplorerAssets({ directory }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ExplorerAssetsMissingError)
    expect((error as Error).message).toBe(`The explorer's assets could not be read from "${directory}". Run \`npm run build:explorer\` to build them.`)
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
})
