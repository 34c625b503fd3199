import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { cleanEnv } from '../support/cleanEnv.ts'

// `npm ci` as the README has it, in a fresh clone: a copy of the files git would commit from this
// working tree (so an uncommitted package.json is the one tested), with the npm registry reachable.
const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)
const maxBuffer = 64 * 1024 * 1024
const lifecycleOfAnInstall = ['preinstall', 'install', 'postinstall', 'prepare']

let clone: string
let npmOutput: string[]
let lockedPackages: Record<string, { version: string }>

beforeAll(async () => {
  clone = mkdtempSync(join(tmpdir(), 'tee-market-clone-'))
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: projectRoot, maxBuffer })
  for (const path of stdout.split('\0')) {
    if (path !== '' && existsSync(join(projectRoot, path))) cpSync(join(projectRoot, path), join(clone, path))
  }
  // --no-audit: an advisory published tomorrow is not a fault of the install. --loglevel=info
  // adds the `npm info run <package> <script>` line npm logs for each script it runs.
  const npm = await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=info'], { cwd: clone, env: cleanEnv, maxBuffer })
  npmOutput = `${npm.stdout}\n${npm.stderr}`.split('\n')
  lockedPackages = (JSON.parse(readFileSync(join(clone, 'package-lock.json'), 'utf8')) as { packages: typeof lockedPackages }).packages
}, 600_000)

afterAll(() => {
  if (clone !== undefined) rmSync(clone, { recursive: true, force: true })
})

/** The folders, relative to the clone, where the lockfile installs `name`. */
function installedCopiesOf(name: string): string[] {
  return Object.keys(lockedPackages).filter((path) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`))
}

test('npm ci prints no warning (engines, install scripts not covered by allowScripts)', () => {
  expect(npmOutput.filter((line) => line.startsWith('npm warn'))).toEqual([])
})

test('no dependency runs an install script: none is needed, and @scarf/scarf\'s reports the install to a third party', () => {
  // npm logs a run twice, as it starts and as it ends.
  const ran = npmOutput
    .map((line) => /^npm info run (\S+) (\S+)/.exec(line))
    .filter((match) => match !== null && lifecycleOfAnInstall.includes(match[2]!))
    .map((match) => `${match![1]} ${match![2]}`)
  expect([...new Set(ran)]).toEqual([])
  // A witness besides npm's log: esbuild's postinstall swaps its JS launcher for the native binary.
  for (const esbuild of installedCopiesOf('esbuild')) {
    expect(readFileSync(join(clone, esbuild, 'bin/esbuild'), 'utf8').slice(0, 19)).toBe('#!/usr/bin/env node')
  }
})

test('npm ci still runs the checkout\'s preprepare, which applies every patch in patches/', () => {
  const { name, version } = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { name: string; version: string }
  expect(npmOutput).toContain(`> ${name}@${version} preprepare`)
  const patches = readdirSync(join(clone, 'patches')).filter((file) => file.endsWith('.patch'))
  expect(patches.length).toBeGreaterThan(0)
  for (const patch of patches) {
    const parts = patch.slice(0, -'.patch'.length).split('+')
    expect(npmOutput).toContain(`${parts.slice(0, -1).join('/')}@${parts.at(-1)} ✔`)
  }
})

test('what the skipped scripts would set up works without them: esbuild, keccak, anvil', async () => {
  const inClone = { cwd: clone, env: cleanEnv }
  const esbuilds = installedCopiesOf('esbuild')
  expect(esbuilds.length).toBeGreaterThan(0)
  for (const esbuild of esbuilds) {
    const transform = `console.log(require('./${esbuild}').transformSync('let n: number = 1', { loader: 'ts' }).code)`
    expect((await run(process.execPath, ['-e', transform], inClone)).stdout).toBe('let n = 1;\n\n')
  }
  const cli = await run(join(clone, 'node_modules/.bin/esbuild'), ['--version'], inClone)
  expect(cli.stdout.trim()).toBe(lockedPackages['node_modules/esbuild']!.version)

  // keccak-256 of no bytes, as Ethereum knows it.
  const keccak = `console.log(require('keccak')('keccak256').update('').digest('hex'))`
  expect((await run(process.execPath, ['-e', keccak], inClone)).stdout.trim()).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')

  const anvil = await run(join(clone, 'node_modules/.bin/anvil'), ['--version'], inClone)
  expect(anvil.stdout).toContain(`anvil Version: ${lockedPackages['node_modules/@foundry-rs/anvil']!.version}`)
})
