import type { FastifyInstance } from 'fastify'
import type { Resource, Responder } from '../http/createResponder.ts'
import { buildExplorerShell, explorerAssetPaths } from './buildExplorerShell.ts'
import type { ExplorerSite } from './ExplorerSite.ts'
import type { ExplorerAssets } from './readExplorerAssets.ts'

/** The explorer's pages (deep links included) and its two assets. */
export const explorerPaths = ['/', '/jobs/:id', '/services/:id', '/sellers/:address', explorerAssetPaths.js, explorerAssetPaths.css] as const

export type RegisterExplorerRoutesParameters = {
  assets: ExplorerAssets
  site: ExplorerSite
  respond: Responder
}

/** None of these change while the app runs: one version for their whole life. */
const explorerVersion = 0

/**
 * Serves the explorer: the same HTML shell at `/` and at every deep link, which the page renders
 * from its path, and the bundled script and stylesheet (ETag, compression, as the API's answers).
 */
export function registerExplorerRoutes(app: FastifyInstance, { assets, site, respond }: RegisterExplorerRoutesParameters): void {
  const fixed = (contentType: string, body: string): Resource<undefined> => ({
    contentType,
    version: () => explorerVersion,
    build: () => ({ status: 200, body }),
  })
  const shell = fixed('text/html; charset=utf-8', buildExplorerShell({ site }))
  const js = fixed('text/javascript; charset=utf-8', assets.js)
  const css = fixed('text/css; charset=utf-8', assets.css)
  for (const path of ['/', '/jobs/:id', '/services/:id', '/sellers/:address'])
    app.get(path, (request, reply) => respond(request, reply, shell, undefined))
  app.get(explorerAssetPaths.js, (request, reply) => respond(request, reply, js, undefined))
  app.get(explorerAssetPaths.css, (request, reply) => respond(request, reply, css, undefined))
}
