import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../../config/loadConfig.ts'
import type { StartReferenceSellerReturnType } from '../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startRestIndexer, type StartRestIndexerReturnType } from '../../server/startRestIndexer.ts'
import { cleanEnv } from '../support/cleanEnv.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { startSeededSeller } from '../support/startSeededSeller.ts'

// The package as a user gets it: `npm pack` of this checkout, installed from the tarball.
const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const fixture = fileURLToPath(new URL('./consumer', import.meta.url))
const zod4Fixture = fileURLToPath(new URL('./zod4App', import.meta.url))
const tsc = join(projectRoot, 'node_modules/typescript/bin/tsc')
const inspectorCli = join(projectRoot, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js')
const run = promisify(execFile)

let work: string
let tarball: string
let packedFiles: string[]

/** An empty project (`npm init`'s package.json) with the tarball installed, and `also` beside it; what npm printed. */
async function installTarball(
  folder: string,
  packageJson: Record<string, unknown>,
  also: string[] = [],
): Promise<{ stdout: string; stderr: string }> {
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, ...packageJson }, null, 2)}\n`)
  return run('npm', ['install', '--no-audit', '--no-fund', tarball, ...also], { cwd: folder, env: cleanEnv })
}

/** The versions this checkout develops with, as `name@version`. */
function ourVersionOf(name: string): string {
  const { devDependencies } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
  return `${name}@${devDependencies[name]}`
}

function folderBytes(path: string): number {
  return readdirSync(path, { withFileTypes: true }).reduce((total, entry) => {
    const child = join(path, entry.name)
    if (entry.isDirectory()) return total + folderBytes(child)
    return entry.isFile() ? total + statSync(child).size : total
  }, 0)
}

function installedPackages(nodeModules: string): string[] {
  return readdirSync(nodeModules, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .flatMap((entry) =>
      entry.name.startsWith('@')
        ? readdirSync(join(nodeModules, entry.name)).map((name) => `${entry.name}/${name}`)
        : [entry.name],
    )
    .sort()
}

beforeAll(async () => {
  for (const built of ['dist/lib/client.js', 'dist/lib/client.d.ts', 'dist/bin/tee-market-mcp.js']) {
    if (!existsSync(join(projectRoot, built))) {
      throw new Error(`${built} is missing: \`npm test\` builds it first (pretest); to run this file alone, \`npm run build\` first.`)
    }
  }
  work = mkdtempSync(join(tmpdir(), 'tee-market-package-'))
  // --ignore-scripts: `npm test` has just built dist/ (prepack would build it again).
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: projectRoot, env: cleanEnv })
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[]
  tarball = join(work, packed!.filename)
  packedFiles = packed!.files.map((file) => file.path)
})

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

test('the tarball holds what users run and import, and installs alone: no runtime dependency', async () => {
  expect(packedFiles).toContain('bin/tee-market-mcp.js')
  expect(packedFiles).toContain('dist/bin/tee-market-mcp.js')
  expect(packedFiles).toContain('dist/lib/client.d.ts')
  expect(packedFiles).toContain('dist/lib/types/zod/index.d.ts')
  expect(packedFiles).toContain('dist/contract/contract.d.ts')
  expect(packedFiles).toContain('server.json')
  expect(packedFiles.filter((path) => /^(test|bench|\.ci|devnet|server|mcp|chain|contract|client)\//.test(path))).toEqual([])

  const folder = join(work, 'empty')
  await installTarball(folder, {})
  const nodeModules = join(folder, 'node_modules')
  expect(installedPackages(nodeModules)).toEqual(['tee-market'])
  const bytes = folderBytes(nodeModules)
  console.log(`npm i <tarball>: ${(bytes / 1024 / 1024).toFixed(1)} MB installed`)
  expect(bytes).toBeLessThanOrEqual(40 * 1024 * 1024)

  const version = await run(join(nodeModules, '.bin/tee-market-mcp'), ['--version'], { env: cleanEnv })
  expect(version.stdout.trim()).toMatch(/^tee-market \d+\.\d+\.\d+/)
})

test('the packed manifest holds no script npm runs when installing a package', async () => {
  // What npm 11 runs, or asks allowScripts about, for an installed package (@npmcli/arborist's
  // install-scripts.js): these four, and node-gyp for a binding.gyp. The SDK patch is applied by
  // preprepare, which npm runs only in this checkout (npm ci, npm install with no arguments).
  const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json'])
  const { scripts = {} } = JSON.parse(stdout) as { scripts?: Record<string, string> }
  expect(Object.keys(scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([])
  expect(packedFiles.filter((path) => path.endsWith('binding.gyp'))).toEqual([])
})

test('server.json names the package as the MCP registry checks it (mcpName, identifier, version)', () => {
  const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(projectRoot, path), 'utf8')) as Record<string, unknown>
  const packageJson = readJson('package.json')
  const serverJson = readJson('server.json') as { name: string; version: string; packages: Record<string, unknown>[] }
  expect(serverJson.name).toBe(packageJson.mcpName)
  expect(serverJson.version).toBe(packageJson.version)
  expect(serverJson.packages).toEqual([
    expect.objectContaining({ registryType: 'npm', identifier: packageJson.name, version: packageJson.version, transport: { type: 'stdio' } }),
  ])
})

test('the MCP Inspector CLI lists the six tools through npx -y file:<tarball>', async () => {
  // The Inspector CLI names itself from `../package.json` of its working folder (a quirk of
  // 0.18): give it one. npx installs the tarball in its own cache, not in this folder.
  const folder = join(work, 'inspect', 'cwd')
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(work, 'inspect', 'package.json'), '{ "name": "inspect", "private": true }\n')
  const { stdout } = await run(
    process.execPath,
    [inspectorCli, '--cli', 'npx', '-y', `file:${tarball}`, '--method', 'tools/list'],
    { cwd: folder, env: cleanEnv },
  )
  const { tools } = JSON.parse(stdout) as { tools: { name: string }[] }
  expect(tools.map((tool) => tool.name).sort()).toEqual(['get_job', 'get_service', 'get_service_tee', 'list_services', 'run', 'verify_attestation'])
})

describe('a TypeScript consumer of tee-market/client, /contract and /attestation', () => {
  let consumer: string

  /** tsc over the fixture with a standard tsconfig (`tsc --init`'s strict defaults) and one resolution. */
  const compile = (resolution: Resolution): Promise<void> => compileApp(consumer, { resolution, skipLibCheck: true })

  beforeAll(async () => {
    consumer = join(work, 'consumer')
    // The subpaths import the app's zod and @ts-rest/core (the README says to install them beside it).
    await installTarball(consumer, { type: 'module' }, [ourVersionOf('zod'), ourVersionOf('@ts-rest/core')])
    cpSync(join(fixture, 'src'), join(consumer, 'src'), { recursive: true })
  })

  test('compiles with moduleResolution bundler', async () => {
    await compile('bundler')
  })

  test('bundles for the browser', async () => {
    const result = await build({
      entryPoints: [join(consumer, 'src/browser.ts')],
      absWorkingDir: consumer,
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    })
    const bundle = result.outputFiles[0]!.contents
    const gzipped = gzipSync(bundle).length
    console.log(`browser bundle of the client, watcher and attestation check: ${(bundle.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped`)
    expect(Buffer.from(bundle).toString()).not.toMatch(/from ?"node:/)
    writeFileSync(join(consumer, 'browser-bundle.mjs'), bundle)
  })

  describe('on a devnet, with moduleResolution node16', () => {
    let devnet: StartDevnetReturnType
    let indexer: StartRestIndexerReturnType
    let seller: StartReferenceSellerReturnType | undefined
    let child: ChildProcessWithoutNullStreams | undefined

    beforeAll(async () => {
      await compile('node16')
      // Its own devnet: the reference seller settles a seeded Pending job.
      devnet = await startTestDevnet({ seed: true })
      const { deployment } = devnet
      const config = loadConfig({
        argv: [
          '--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(deployment),
          '--poll-interval', '250', '--port', '0', '--host', '127.0.0.1',
        ],
        env: {},
      })
      indexer = await startRestIndexer(config, { mode: 'production', logger: false })
    })

    afterAll(async () => {
      child?.kill()
      await seller?.stop()
      await indexer?.stop()
      await devnet?.stop()
    })

    test('watches a Pending job to Settled and verifies its attestation offline', async () => {
      const jobId = String(devnet.seedSummary!.pendingForReferenceSeller[0])
      child = spawn(process.execPath, ['out-node16/main.js', indexer.url, jobId], { cwd: consumer, env: cleanEnv })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve))

      // The watcher's first answer is the job as it is; only then does the seller answer it.
      while (!stdout.includes('\n')) {
        if (child.exitCode !== null) throw new Error(`the consumer exited early:\n${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      seller = await startSeededSeller(devnet)
      expect(await exited, stderr).toBe(0)

      const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(lines).toEqual([
        { state: 'Pending' },
        { state: 'Settled' },
        { verified: true, providerType: 'centralized', routes: ['buyers', 'feed', 'health', 'jobs', 'sellers', 'services', 'stats', 'transactions'] },
      ])

      // The browser bundle runs as it is (an ES module with no Node built-in): a Settled job is
      // yielded once, and its attestation checks out.
      const { followJob } = (await import(pathToFileURL(join(consumer, 'browser-bundle.mjs')).href)) as {
        followJob: (baseUrl: string, jobId: string, onState: (stateName: string) => void) => Promise<boolean>
      }
      const states: string[] = []
      expect(await followJob(indexer.url, jobId, (stateName) => states.push(stateName))).toBe(true)
      expect(states).toEqual(['Settled'])
    })
  })
})

describe('an app on zod 4 installs tee-market alone: the client and the attestation check bring their zod 3 and ts-rest, types too', () => {
  let app: string
  let installed: { stdout: string; stderr: string }

  /** tsc over the fixture, strict, checking the package's declarations too (no skipLibCheck). */
  const compile = (resolution: Resolution): Promise<void> => compileApp(app, { resolution, skipLibCheck: false })

  beforeAll(async () => {
    app = join(work, 'zod4App')
    installed = await installTarball(app, { type: 'module' }, ['zod@4.6.7'])
    cpSync(join(zod4Fixture, 'src'), join(app, 'src'), { recursive: true })
  })

  test('default: nothing is installed but tee-market and the app\'s zod 4', () => {
    expect(installedPackages(join(app, 'node_modules'))).toEqual(['tee-market', 'zod'])
  })

  test('npm i <tarball> beside zod 4 is silent: no warning, no install script to approve', () => {
    expect(installed.stderr).toBe('')
    expect(installed.stdout.trim()).toMatch(/^added 2 packages in [\d.]+m?s$/)
  })

  // The fixture's @ts-expect-error lines fail the build if the client's types came out as `any`.
  test.each(['bundler', 'node16'] as const)('compiles with moduleResolution %s', async (resolution) => {
    await compile(resolution)
  })

  test('runs: zod 4 parses the app\'s settings, the attestation check parses a text', async () => {
    const { stdout } = await run(process.execPath, ['out-node16/app.js'], { cwd: app, env: cleanEnv })
    expect(JSON.parse(stdout)).toEqual({ settings: { contact: 'ops@example.org', pageSize: 20 }, providerType: 'centralized', client: 'function' })
  })
})

type Resolution = 'node16' | 'bundler'

/** tsc over an app's `src` with strict settings and one module resolution; fails with tsc's output. */
async function compileApp(folder: string, { resolution, skipLibCheck }: { resolution: Resolution; skipLibCheck: boolean }): Promise<void> {
  const compilerOptions = {
    target: 'ES2022',
    module: resolution === 'node16' ? 'node16' : 'esnext',
    moduleResolution: resolution,
    strict: true,
    skipLibCheck,
    esModuleInterop: true,
    types: ['node'],
    typeRoots: [join(projectRoot, 'node_modules/@types')],
    outDir: `out-${resolution}`,
    ...(resolution === 'bundler' ? { noEmit: true } : {}),
  }
  const config = `tsconfig.${resolution}.json`
  writeFileSync(join(folder, config), JSON.stringify({ compilerOptions, include: ['src'] }, null, 2))
  await run(process.execPath, [tsc, '-p', config], { cwd: folder }).catch((error: { stdout?: string }) => {
    throw new Error(`tsc -p ${config} failed:\n${error.stdout ?? String(error)}`)
  })
}
