import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { DocsBuildError } from '../../errors/http.ts'

const run = promisify(execFile)

export type BuildDocsHtmlParameters = {
  /** The OpenAPI document to render (the committed `openapi.json`). */
  openApiPath: string
  title: string
}

export type BuildDocsHtmlReturnType = string

/**
 * Renders the OpenAPI document as one self-contained Redoc page with `redocly build-docs`.
 * `--inlineBundle` embeds the Redoc scripts, so the page loads no script or font from a CDN.
 * Built at start-up (about half a second) rather than committed: the page is 2.5 MB of
 * generated bundle that would otherwise be rewritten in the repository on every contract change.
 */
export async function buildDocsHtml({ openApiPath, title }: BuildDocsHtmlParameters): Promise<BuildDocsHtmlReturnType> {
  const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js')
  const directory = await mkdtemp(join(tmpdir(), 'market-docs-'))
  const output = join(directory, 'docs.html')
  try {
    await run(
      process.execPath,
      [cli, 'build-docs', openApiPath, '--inlineBundle', '--lint-config', 'off', '--title', title, '--output', output],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    )
    return await readFile(output, 'utf8')
  } catch (cause) {
    throw new DocsBuildError({ openApiPath, cause })
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}
