import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BenchSetupError } from '../errors/bench.ts'

const projectRoot = fileURLToPath(new URL('..', import.meta.url))

export type PackageTargets = {
  /** Installed size of `npm i <tarball>` in an empty folder, bytes. */
  installedBytes: number
  /** First `tools/list` after the first `npx -y` of a new tarball, its dependencies in the npm cache. */
  firstToolsListMs: number
  /** `tools/list` once npx holds the tarball. */
  warmToolsListMs: number
}

export const packageTargets: PackageTargets = {
  installedBytes: 40 * 1024 * 1024,
  firstToolsListMs: 10_000,
  warmToolsListMs: 3_000,
}

export type MeasurePackageReturnType = PackageTargets & {
  tarballBytes: number
  installedPackages: number
  /** The `npm warn` lines `npm i <tarball>` printed (install scripts to approve, deprecations...): none is the target. */
  installWarnings: string[]
  tools: string[]
}

/** Sum of the sizes of every file under a folder (what `du -b` counts, without directory blocks). */
function folderBytes(path: string): number {
  let total = 0
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name)
    if (entry.isDirectory()) total += folderBytes(child)
    else if (entry.isFile()) total += statSync(child).size
  }
  return total
}

function countPackages(nodeModules: string): number {
  let count = 0
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    if (entry.name.startsWith('@')) count += countPackages(join(nodeModules, entry.name))
    else count += 1
  }
  return count
}

/** Spawns `npx -y file:<tarball>` through the SDK's stdio client and times the first `tools/list`. */
export async function timeToolsList(tarball: string, { cwd }: { cwd: string }): Promise<{ ms: number; tools: string[] }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('MARKET_') && !entry[0].startsWith('npm_'),
    ),
  )
  const started = performance.now()
  const transport = new StdioClientTransport({ command: 'npx', args: ['-y', `file:${tarball}`], env, cwd, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const client = new Client({ name: 'measure-package', version: '1.0.0' })
  try {
    await client.connect(transport, { timeout: 120_000 })
    const { tools } = await client.listTools(undefined, { timeout: 120_000 })
    return { ms: performance.now() - started, tools: tools.map((tool) => tool.name).sort() }
  } catch (error) {
    throw new Error(`npx -y file:${tarball} did not answer tools/list: ${String(error)}\n${stderr}`)
  } finally {
    await client.close()
  }
}

/**
 * Packs this checkout, installs the tarball in an empty folder (which also fills the npm cache
 * with its dependencies), then times `tools/list` through `npx -y` of a tarball path npx has never
 * seen, and again once npx holds it.
 */
export async function measurePackage({ log }: { log: (message: string) => void }): Promise<MeasurePackageReturnType> {
  const work = mkdtempSync(join(tmpdir(), 'tee-market-package-'))
  try {
    // Built apart: prepack's build output would share stdout with `npm pack --json`.
    log('npm run build')
    execFileSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'inherit'] })
    log('npm pack')
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: projectRoot, encoding: 'utf8' }),
    ) as { filename: string }[]
    const tarball = join(work, packed!.filename)
    const consumer = join(work, 'consumer')
    execFileSync('mkdir', ['-p', consumer])
    writeFileSync(join(consumer, 'package.json'), '{ "name": "consumer", "private": true }\n')
    log('npm i <tarball> in an empty folder')
    // Its stderr is kept: every `npm warn` line there is a warning a user installing it would see.
    const { status, stderr } = spawnSync('npm', ['i', '--no-audit', '--no-fund', tarball], { cwd: consumer, encoding: 'utf8' })
    if (status !== 0) throw new BenchSetupError(`npm i <tarball> exited with ${status}: ${stderr.trim()}`)
    const nodeModules = join(consumer, 'node_modules')

    // A path npx has never seen: its cache key is the spec, so this is a first `npx -y`.
    const fresh = join(work, `tee-market-${Date.now()}.tgz`)
    copyFileSync(tarball, fresh)
    log('first npx -y of a new tarball')
    const first = await timeToolsList(fresh, { cwd: work })
    log('npx -y again')
    const warm = await timeToolsList(fresh, { cwd: work })
    return {
      tarballBytes: statSync(tarball).size,
      installedBytes: folderBytes(nodeModules),
      installedPackages: countPackages(nodeModules),
      installWarnings: stderr.split('\n').filter((line) => line.startsWith('npm warn')),
      firstToolsListMs: first.ms,
      warmToolsListMs: warm.ms,
      tools: warm.tools,
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
