import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { buildDocsHtml } from '../../server/http/buildDocsHtml.ts'
import { openApiPath } from './startRestServer.ts'

let cacheDir: string

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'docs-cache-test-'))
})
afterAll(() => rm(cacheDir, { recursive: true, force: true }))

const pagesKept = async (): Promise<string[]> => (await readdir(cacheDir)).filter((name) => name.endsWith('.html'))

test('the API reference page is built once and kept: a restart reads it rather than running Redocly again', async () => {
  const built = await buildDocsHtml({ openApiPath, title: 'Cached reference', cacheDir })
  expect(built).toContain('<title>Cached reference</title>')
  expect(built.length).toBeGreaterThan(1_000_000)
  const [kept, ...others] = await pagesKept()
  expect(others).toEqual([])
  const keptPage = await readFile(join(cacheDir, kept as string), 'utf8')
  expect(keptPage).toContain('<title>Cached reference</title>')
  // What is kept is what is served (adapted to the pages' policy when read, so a page kept before
  // that adaptation is served adapted): a page changed on disk comes back changed, so no build ran.
  expect(built).not.toContain('https://cdn.redoc.ly/')
  const marked = built.replace('<title>Cached reference</title>', '<title>Read from the cache</title>')
  await writeFile(join(cacheDir, kept as string), marked)
  expect(await buildDocsHtml({ openApiPath, title: 'Cached reference', cacheDir })).toBe(marked)
})

test('a page built from other inputs is built anew, beside the kept one', async () => {
  const before = await pagesKept()
  const other = await buildDocsHtml({ openApiPath, title: 'Another title', cacheDir })
  expect(other).toContain('<title>Another title</title>')
  expect(await pagesKept()).toHaveLength(before.length + 1)
})

test('a folder that cannot be written only means building each time', async () => {
  const file = join(cacheDir, 'not-a-folder')
  await writeFile(file, '')
  const html = await buildDocsHtml({ openApiPath, title: 'Unkept', cacheDir: join(file, 'docs') })
  expect(html).toContain('<title>Unkept</title>')
})

test('an unreadable document is a DocsBuildError naming it', async () => {
  const missing = join(cacheDir, 'missing.json')
  await expect(buildDocsHtml({ openApiPath: missing, title: 'x', cacheDir })).rejects.toMatchObject({
    name: 'DocsBuildError',
    message: expect.stringContaining(missing),
  })
})
