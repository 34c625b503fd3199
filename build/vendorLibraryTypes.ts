import { mkdirSync, readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

// `tee-market/client` and `tee-market/attestation` bundle zod 3 and @ts-rest/core, and their
// declarations name both: an app may have neither installed, or zod 4 (another API under the same
// name). So the declarations they need are copied under dist/lib/types/ and ours point there.
// viem's Hex and Address, the only viem types they name, are written as what they are by default.
// Runs after tsup (`npm run build`).

const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const libDir = join(projectRoot, 'dist/lib')
const typesDir = join(libDir, 'types')
const require = createRequire(import.meta.url)

const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`))

/** Every `.d.ts` under `dir`, as paths relative to it. */
function declarations(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const path = join(under, entry.name)
    if (entry.isDirectory()) return declarations(dir, path)
    return entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** `./x` → `./x.js` or `./x/index.js`: ESM declarations (our package is a module) need the file. */
function withExtension(fromFile: string, specifier: string): string {
  if (!specifier.startsWith('.') || specifier.endsWith('.js')) return specifier
  const target = join(dirname(fromFile), specifier)
  if (existsSync(`${target}.d.ts`)) return `${specifier}.js`
  if (existsSync(join(target, 'index.d.ts'))) return `${specifier}/index.js`
  throw new Error(`${fromFile} imports "${specifier}", which has no declaration file.`)
}

/** Rewrites every module specifier of a declaration file; bare ones through `bare`. */
function rewrite(file: string, bare: (specifier: string) => string): void {
  const text = readFileSync(file, 'utf8').replace(/(from\s+|import\s*\(\s*)(["'])([^"']+)\2/g, (_match, keyword: string, quote: string, specifier: string) => {
    const target = specifier.startsWith('.') ? withExtension(file, specifier) : bare(specifier)
    return `${keyword}${quote}${target}${quote}`
  })
  writeFileSync(file, text)
}

function copyDeclarations(from: string, files: readonly string[], to: string, rename: (path: string) => string = (path) => path): string[] {
  return files.map((path) => {
    const target = join(to, rename(path))
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, readFileSync(join(from, path)))
    return target
  })
}

const relativeTo = (file: string, target: string): string => {
  const path = relative(dirname(file), target).replaceAll('\\', '/')
  return path.startsWith('.') ? path : `./${path}`
}

const zodTypes = join(typesDir, 'zod')
const tsRestTypes = join(typesDir, 'ts-rest-core')
const viemTypes = join(typesDir, 'viem.d.ts')
const zodIndex = join(zodTypes, 'index.d.ts')

const zodDir = packageDir('zod')
const zodFiles = copyDeclarations(zodDir, ['index.d.ts', ...declarations(zodDir, 'v3')], zodTypes)
for (const file of zodFiles) rewrite(file, (specifier) => {
  throw new Error(`zod's declaration ${file} imports "${specifier}": only its own files can be copied.`)
})

const tsRestDir = packageDir('@ts-rest/core')
const tsRestFiles = copyDeclarations(tsRestDir, ['index.cjs.d.ts', ...declarations(tsRestDir, 'src')], tsRestTypes, (path) =>
  path === 'index.cjs.d.ts' ? 'index.d.ts' : path,
)
for (const file of tsRestFiles) rewrite(file, (specifier) => {
  if (specifier === 'zod') return relativeTo(file, zodIndex).replace(/\.d\.ts$/, '.js')
  throw new Error(`@ts-rest/core's declaration ${file} imports "${specifier}", which is not copied.`)
})

writeFileSync(viemTypes, '// viem\'s defaults, the only viem types the declarations name.\nexport type Hex = `0x${string}`\nexport type Address = `0x${string}`\n')

const targets: Record<string, string> = { zod: zodIndex, '@ts-rest/core': join(tsRestTypes, 'index.d.ts'), viem: viemTypes }
for (const name of readdirSync(libDir).filter((file) => file.endsWith('.d.ts'))) {
  const file = join(libDir, name)
  const text = readFileSync(file, 'utf8')
  const viemNames = [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+["']viem["']/g)].flatMap((match) => (match[1] ?? '').split(',').map((part) => part.trim()))
  const unknown = viemNames.filter((importName) => importName !== '' && !['Hex', 'Address'].includes(importName.replace(/^type\s+/, '')))
  if (unknown.length > 0) throw new Error(`${name} names viem's ${unknown.join(', ')}: add them to ${relative(projectRoot, viemTypes)}.`)
  rewrite(file, (specifier) => {
    const target = targets[specifier]
    if (target === undefined) throw new Error(`${name} imports "${specifier}", which an app of tee-market/client may not have.`)
    return relativeTo(file, target).replace(/\.d\.ts$/, '.js')
  })
}
console.log(`Copied the declarations of zod and @ts-rest/core to ${relative(projectRoot, typesDir)}.`)
