import type { FastifyInstance } from 'fastify'
import type { AnswerHooks } from '../http/addAnswerHooks.ts'
import { buildPageHeaders } from '../http/pages/buildPageHeaders.ts'
import { registerPages } from '../http/pages/registerPages.ts'
import { registerFixedAnswer } from '../http/registerFixedAnswer.ts'
import { buildExplorerShell, explorerAssetPaths } from './buildExplorerShell.ts'
import type { ExplorerSite } from './ExplorerSite.ts'
import type { ExplorerAssets } from './readExplorerAssets.ts'

/** Every page is the same shell, which renders itself from its path. */
const pagePaths = ['/', '/jobs/:id', '/services/:id', '/sellers/:address', '/buyers/:address'] as const

/** The explorer's pages (deep links included) and its assets. */
export const explorerPaths = [...pagePaths, explorerAssetPaths.js, explorerAssetPaths.css, explorerAssetPaths.teeJs] as const

export type RegisterExplorerRoutesParameters = {
  assets: ExplorerAssets
  site: ExplorerSite
  answers: AnswerHooks
}

/**
 * Serves the explorer: the same HTML shell at `/` and at every deep link, which the page renders
 * from its path, the bundled script and stylesheet, and the TEE verifier the script imports on demand (ETag, compression, as the API's answers),
 * with the pages' headers: the shell's only inline script is its JSON data block, which no policy
 * needs to allow, as it never runs.
 */
export function registerExplorerRoutes(app: FastifyInstance, { assets, site, answers }: RegisterExplorerRoutesParameters): void {
  const shell = buildExplorerShell({ site })
  registerPages(app, {
    headers: buildPageHeaders(),
    routes: (pages) => {
      for (const url of pagePaths)
        registerFixedAnswer(pages, { answers, url, contentType: 'text/html; charset=utf-8', body: shell })
      registerFixedAnswer(pages, { answers, url: explorerAssetPaths.js, contentType: 'text/javascript; charset=utf-8', body: assets.js })
      registerFixedAnswer(pages, { answers, url: explorerAssetPaths.css, contentType: 'text/css; charset=utf-8', body: assets.css })
      registerFixedAnswer(pages, { answers, url: explorerAssetPaths.teeJs, contentType: 'text/javascript; charset=utf-8', body: assets.teeJs })
    },
  })
}
