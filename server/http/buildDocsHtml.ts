import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { userFolder } from '../../config/userFolder.ts'
import { DocsBuildError } from '../../errors/http.ts'
import { localizeRedocPage } from './pages/localizeRedocPage.ts'

const run = promisify(execFile)

export type BuildDocsHtmlParameters = {
  /** The OpenAPI document to render (the committed `openapi.json`). */
  openApiPath: string
  title: string
  /**
   * Where built pages are kept, each named by a hash of what it was built from (the document, the
   * title and the Redocly version), so a restart reads the page rather than building it again
   * (default `~/.tee-market/docs`). A folder that cannot be written only means building each time.
   */
  cacheDir?: string | undefined
}

export type BuildDocsHtmlReturnType = string

const defaultDocsCacheDir = join(userFolder, 'docs')

/**
 * Renders the OpenAPI document as one self-contained Redoc page with `redocly build-docs`.
 * `--inlineBundle` embeds the Redoc scripts, so the page loads no script or font from a CDN, and
 * localizeRedocPage makes it load no image from one either (the page as built is what is kept, so
 * a change to that adaptation needs no rebuild).
 * Built at the first start rather than committed: the page is 2.5 MB of generated bundle that
 * would otherwise be rewritten in the repository on every contract change. Kept in `cacheDir`
 * after that: the build is a Node process of its own taking 0.7 s of CPU, which on a 2-core
 * machine a warm restart's load of the index would otherwise share its cores with.
 */
export async function buildDocsHtml({ openApiPath, title, cacheDir = defaultDocsCacheDir }: BuildDocsHtmlParameters): Promise<BuildDocsHtmlReturnType> {
  const cliPackagePath = createRequire(import.meta.url).resolve('@redocly/cli/package.json')
  try {
    const [openApiText, cliPackageText] = await Promise.all([readFile(openApiPath, 'utf8'), readFile(cliPackagePath, 'utf8')])
    const { version } = JSON.parse(cliPackageText) as { version: string }
    const key = createHash('sha256').update(JSON.stringify([openApiText, title, version])).digest('hex')
    const cachedPath = join(cacheDir, `${key}.html`)
    const cached = await readFile(cachedPath, 'utf8').catch(() => '')
    if (cached !== '') return localizeRedocPage(cached)
    const html = await renderDocs({ cli: join(dirname(cliPackagePath), 'bin/cli.js'), openApiPath, title })
    await keepPage(cachedPath, html).catch(() => undefined)
    return localizeRedocPage(html)
  } catch (cause) {
    throw new DocsBuildError({ openApiPath, cause })
  }
}

async function renderDocs({ cli, openApiPath, title }: { cli: string; openApiPath: string; title: string }): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'market-docs-'))
  const output = join(directory, 'docs.html')
  try {
    await run(
      process.execPath,
      [cli, 'build-docs', openApiPath, '--inlineBundle', '--lint-config', 'off', '--title', title, '--output', output],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    )
    return await readFile(output, 'utf8')
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}

/** Written aside and renamed into place: a reader finds the whole page or none, even with other processes writing it too. */
async function keepPage(path: string, html: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const partial = `${path}.${process.pid}.partial`
  try {
    await writeFile(partial, html)
    await rename(partial, path)
  } finally {
    await rm(partial, { force: true })
  }
}
