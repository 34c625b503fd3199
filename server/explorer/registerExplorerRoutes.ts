import type { FastifyInstance } from 'fastify'
import type { AnswerHooks } from '../http/addAnswerHooks.ts'
import { registerFixedAnswer } from '../http/registerFixedAnswer.ts'
import { buildExplorerShell, explorerAssetPaths } from './buildExplorerShell.ts'
import type { ExplorerSite } from './ExplorerSite.ts'
import type { ExplorerAssets } from './readExplorerAssets.ts'

/** Every page is the same shell, which renders itself from its path. */
const pagePaths = ['/', '/jobs/:id', '/services/:id', '/sellers/:address', '/buyers/:address'] as const

/** The explorer's pages (deep links included) and its two assets. */
export const explorerPaths = [...pagePaths, explorerAssetPaths.js, explorerAssetPaths.css] as const

export type RegisterExplorerRoutesParameters = {
  assets: ExplorerAssets
  site: ExplorerSite
  answers: AnswerHooks
}

/**
 * Serves the explorer: the same HTML shell at `/` and at every deep link, which the page renders
 * from its path, and the bundled script and stylesheet (ETag, compression, as the API's answers).
 */
export function registerExplorerRoutes(app: FastifyInstance, { assets, site, answers }: RegisterExplorerRoutesParameters): void {
  const shell = buildExplorerShell({ site })
  for (const url of pagePaths)
    registerFixedAnswer(app, { answers, url, contentType: 'text/html; charset=utf-8', body: shell })
  registerFixedAnswer(app, { answers, url: explorerAssetPaths.js, contentType: 'text/javascript; charset=utf-8', body: assets.js })
  registerFixedAnswer(app, { answers, url: explorerAssetPaths.css, contentType: 'text/css; charset=utf-8', body: assets.css })
}
