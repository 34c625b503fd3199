import type { Plugin } from 'esbuild'
import { defineConfig, type Options } from 'tsup'

// Bundled ESM for everything that runs or is imported from the package, which declares no
// dependency of any kind: `npx -y` installs one package and asks the registry about nothing else
// (even optional peers cost a registry round trip per start). Every library is a devDependency,
// bundled and tree-shaken where it is used. The client and attestation subpaths bundle zod and
// @ts-rest/core too, and their types are copied beside ours (build/vendorLibraryTypes.ts), so an
// app installs nothing else and may use zod 4 itself; the contract subpath leaves them to the app,
// so one copy serves our schemas and its own. Entry points are the only list here: new modules
// are picked up by import.

/**
 * The CommonJS libraries bundled into Node ESM (fastify, ws, the MCP SDK's ajv) `require` Node
 * built-ins and the external dependencies: ESM has no `require`, so each bundle makes one.
 */
const node: Options = {
  banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  treeshake: true,
  splitting: false,
  sourcemap: false,
}

/**
 * For the contract subpath: @anatine/zod-openapi is CommonJS and `require`s zod, which stays external: an ES module has no
 * `require` in browsers or Node. Its `require('zod')` is pointed at a bundled ES module that
 * re-exports the external zod, which esbuild can wrap for CommonJS; every import of zod stays
 * external.
 */
const zodForCommonJs: Plugin = {
  name: 'zod-for-commonjs',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, (args) =>
      args.kind === 'require-call' ? { path: 'zod', namespace: 'zod-for-commonjs' } : { path: 'zod', external: true },
    )
    build.onLoad({ filter: /.*/, namespace: 'zod-for-commonjs' }, () => ({ contents: "export * from 'zod'", resolveDir: '.' }))
  },
}

/**
 * For the client and attestation subpaths, which bundle zod: @anatine/zod-openapi's
 * `require('zod')` gets the ES module every import gets (zod points `require` at its CommonJS
 * build, which would be a second copy of zod in the bundle).
 */
const oneZod: Plugin = {
  name: 'one-zod',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, (args) =>
      args.kind === 'require-call' ? build.resolve('zod', { kind: 'import-statement', resolveDir: args.resolveDir }) : undefined,
    )
  },
}

/** What frontends import: tee-market/client, tee-market/attestation and tee-market/contract. */
const lib: Options = {
  format: 'esm',
  // Browser resolution of bundled libraries (viem's WebSocket is the global one, not `ws`);
  // nothing here uses a Node built-in, so the same files run in Node 20+.
  platform: 'browser',
  target: 'es2022',
  treeshake: true,
  splitting: true,
  sourcemap: false,
  clean: true,
  dts: true,
}

const builds = {
  // Each build has a folder of its own: they run side by side, and each cleans its own.
  lib: {
    ...lib,
    entry: { client: 'client/index.ts', attestation: 'client/attestation.ts' },
    outDir: 'dist/lib',
    noExternal: ['zod', '@ts-rest/core'],
    esbuildPlugins: [oneZod],
  },
  contract: {
    ...lib,
    entry: { contract: 'client/contract.ts' },
    outDir: 'dist/contract',
    external: ['@ts-rest/core'],
    esbuildPlugins: [zodForCommonJs],
  },
  // The published bin: the local MCP server over stdio, one self-contained file.
  bin: { ...node, entry: { 'tee-market-mcp': 'mcp/stdio/main.ts' }, outDir: 'dist/bin', clean: true },
  // Run from a checkout (npm run serve, mcp:hosted, seller); not in the published files. Their
  // libraries load from the checkout's node_modules, as they are: some read files beside their
  // own modules at run time (the Redoc CLI, static UI assets), which a bundle would break.
  app: {
    ...node,
    skipNodeModulesBundle: true,
    noExternal: [],
    // The data dir's database runs on a worker thread from a file of its own, beside the bundles
    // (startPgliteWorker finds it there).
    entry: { serve: 'server/main.ts', 'mcp-hosted': 'mcp/hosted/main.ts', seller: 'devnet/seller/main.ts', pgliteWorker: 'server/durable/pgliteWorker.ts' },
    outDir: 'dist/app',
    clean: true,
  },
} satisfies Record<string, Options>

type BuildName = keyof typeof builds

/** `tsup --env.only bin` builds one part (what `npm start` needs); plain `tsup` builds all. */
export default defineConfig(({ env }) => {
  const only = env?.only
  if (only === undefined) return Object.values(builds)
  if (!(only in builds)) throw new Error(`--env.only must be one of ${Object.keys(builds).join(', ')}, got "${only}".`)
  return [builds[only as BuildName]]
})
