import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core'
import { build, type Plugin } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { marketContract } from '../contract/router.ts'

export type BuildExplorerParameters = {
  /** Where explorer.js and explorer.css are written. */
  outdir: string
}

export type BuildExplorerReturnType = {
  /** Size of each written asset in bytes, by file name. */
  sizes: Record<string, number>
}

/**
 * The page, its stylesheet, and the TEE verifier (dcap-qvl with its ASN.1, bignum and curve code:
 * larger than the rest of the page) in a module of its own that a service page loads only when
 * asked to verify (`explorerAssetPaths.teeJs`), so the market page does not wait for it.
 */
const entryPoints = [
  { in: fileURLToPath(new URL('ui/main.ts', import.meta.url)), out: 'explorer' },
  { in: fileURLToPath(new URL('ui/explorer.css', import.meta.url)), out: 'explorer' },
  { in: fileURLToPath(new URL('ui/tee/verifyTeeEvidence.ts', import.meta.url)), out: 'explorer-tee' },
]

/**
 * The contract's schemas import zod as an ES module, @anatine/zod-openapi (CommonJS) requires it:
 * left alone, the bundle would hold zod twice (its ESM and its CJS build, 56 KB minified each).
 */
const oneZod: Plugin = {
  name: 'one-zod',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, async ({ kind, resolveDir, pluginData }) =>
      kind === 'require-call' && pluginData !== oneZod
        ? build.resolve('zod', { kind: 'import-statement', resolveDir, pluginData: oneZod })
        : undefined,
    )
  },
}

/**
 * elliptic (dcap-qvl's curve code in a browser) loads precomputed secp256k1 tables when it can;
 * dcap-qvl uses P-256 only, and elliptic builds without them (it catches the failed require).
 */
const noSecp256k1Tables: Plugin = {
  name: 'no-secp256k1-tables',
  setup(build) {
    build.onResolve({ filter: /^\.\/precomputed\/secp256k1$/ }, () => ({ path: 'secp256k1-tables', namespace: 'empty' }))
    build.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'throw new Error("not bundled")' }))
  },
}

/** A route as the typed client reads it when it validates no response: its method, path, statuses and body type. */
function routeForClient({ method, path, responses, ...route }: AppRoute) {
  const statuses = Object.fromEntries(Object.keys(responses).map((status) => [status, null]))
  return { method, path, responses: statuses, ...('contentType' in route ? { contentType: route.contentType } : {}) }
}

function routesForClient(router: AppRouter): Record<string, unknown> {
  return Object.fromEntries(Object.entries(router).map(([key, value]) => [key, isAppRoute(value) ? routeForClient(value) : routesForClient(value)]))
}

/**
 * The page's typed client (ui/client.ts) is made from the REST contract, whose routes hold every
 * response's zod schema and the OpenAPI summaries and descriptions: the client uses none of them
 * (it validates no response, `validateResponseOnClient` is unset), yet a value import of
 * contract/router.ts bundles them all (the TEE routes alone: contract/tee.ts, 5.8 KB minified). The
 * page gets the contract's routes as the client reads them, taken from the contract itself when
 * building, so they cannot drift from it; the client's types still come from the whole contract.
 */
const contractRoutesOnly: Plugin = {
  name: 'contract-routes-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]contract[\\/]router\.ts$/ }, () => ({
      contents: `export const marketContract = ${JSON.stringify(routesForClient(marketContract))}`,
      loader: 'js',
    }))
  },
}

/**
 * Bundles the explorer (its pages, the typed client over the contract, the attestation code the
 * server uses) into one minified ES module and one stylesheet, with nothing loaded from elsewhere.
 */
export async function buildExplorer({ outdir }: BuildExplorerParameters): Promise<BuildExplorerReturnType> {
  const result = await build({
    entryPoints,
    outdir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    legalComments: 'none',
    metafile: true,
    plugins: [contractRoutesOnly, oneZod, noSecp256k1Tables],
    logLevel: 'warning',
  })
  const sizes: Record<string, number> = {}
  for (const [path, output] of Object.entries(result.metafile.outputs)) sizes[path.split('/').at(-1) as string] = output.bytes
  return { sizes }
}
