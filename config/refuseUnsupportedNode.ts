import { checkNodeVersion } from './checkNodeVersion.ts'

/**
 * The first statement of each entry point (npm start, serve, mcp:hosted, seller): on a Node.js the
 * dependencies do not support, one line on stderr and exit code 1, before any setting is read, file
 * opened or port bound, rather than a failure somewhere later (the API reference's build at start,
 * say). A call rather than a module run for its effect: package.json declares no side effects, so
 * the bundler drops an import made for its effect alone.
 */
export function refuseUnsupportedNode(): void {
  const refusal = checkNodeVersion({ version: process.versions.node })
  if (refusal === undefined) return
  process.stderr.write(`${refusal.message}\n`)
  process.exit(1)
}
