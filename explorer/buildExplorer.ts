import { build, type Plugin } from 'esbuild'
import { fileURLToPath } from 'node:url'

export type BuildExplorerParameters = {
  /** Where explorer.js and explorer.css are written. */
  outdir: string
}

export type BuildExplorerReturnType = {
  /** Size of each written asset in bytes, by file name. */
  sizes: Record<string, number>
}

const entryPoints = [
  fileURLToPath(new URL('ui/main.ts', import.meta.url)),
  fileURLToPath(new URL('ui/explorer.css', import.meta.url)),
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
 * Bundles the explorer (its pages, the typed client over the contract, the attestation code the
 * server uses) into one minified ES module and one stylesheet, with nothing loaded from elsewhere.
 */
export async function buildExplorer({ outdir }: BuildExplorerParameters): Promise<BuildExplorerReturnType> {
  const result = await build({
    entryPoints,
    outdir,
    entryNames: 'explorer',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    legalComments: 'none',
    metafile: true,
    plugins: [oneZod],
    logLevel: 'warning',
  })
  const sizes: Record<string, number> = {}
  for (const [path, output] of Object.entries(result.metafile.outputs)) sizes[path.split('/').at(-1) as string] = output.bytes
  return { sizes }
}
