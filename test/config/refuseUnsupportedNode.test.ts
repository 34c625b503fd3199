import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

// Each entry point run as its npm script runs it, with process.versions.node made to read an older
// version by a preload (test/config/support/fakeNodeVersion.mjs): one line on stderr, nothing on
// stdout, exit code 1. `--help` would otherwise print the usage and exit 0, so the refusal comes
// before the arguments are even read.
const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const preload = fileURLToPath(new URL('./support/fakeNodeVersion.mjs', import.meta.url))
const tsx = join(projectRoot, 'node_modules/.bin/tsx')

type Run = { code: number | null; stdout: string; stderr: string }

function run(command: string, args: string[], fakeVersion: string | undefined): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: `--import=${preload}` }
  if (fakeVersion === undefined) delete env.FAKE_NODE_VERSION
  else env.FAKE_NODE_VERSION = fakeVersion
  return new Promise((resolve) => {
    execFile(command, args, { cwd: projectRoot, env, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    )
  })
}

/** What each npm script runs: `npm start` is `tsx devnet/start.ts`; the others run the dist/app bundles. */
const entries = {
  'npm start (tsx devnet/start.ts)': { command: tsx, args: ['devnet/start.ts'] },
  'npm run serve (node dist/app/serve.js)': { command: process.execPath, args: ['dist/app/serve.js'] },
  'npm run mcp:hosted (node dist/app/mcp-hosted.js)': { command: process.execPath, args: ['dist/app/mcp-hosted.js'] },
  'npm run seller (node dist/app/seller.js)': { command: process.execPath, args: ['dist/app/seller.js'] },
  'server/main.ts from the sources': { command: process.execPath, args: ['--import', 'tsx', 'server/main.ts'] },
}

describe.each(Object.entries(entries))('%s', (_name, { command, args }) => {
  const script = args.at(-1) as string
  test('default: on Node.js 20.18.0, one line saying what is needed, exit code 1', async () => {
    expect(existsSync(join(projectRoot, script)), `${script}: run \`npx tsup --env.only app\``).toBe(true)
    const { code, stdout, stderr } = await run(command, [...args, '--help'], '20.18.0')
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toBe(
      'Node.js 20.18.0 cannot run tee-market: its dependencies need Node.js ^20.19.0 || ^22.12.0 || >=24.0.0 (@redocly/cli, which builds the API reference at start, among them). Install Node.js 22 LTS, or 20.19 or later, and run again.\n',
    )
  })

  test('on Node.js 23 too (left out by the test runner), and not on a supported one', async () => {
    expect((await run(command, [...args, '--help'], '23.11.1')).code).toBe(1)
    const supported = await run(command, [...args, '--help'], '22.12.0')
    expect(supported.code, supported.stderr).toBe(0)
    expect(supported.stdout).toContain('Usage: npm')
  })
})

// Through npm itself: the check is the first step of each script's pre-script, so the refusal
// comes before any build step (tsup, the explorer's bundle) runs or prints.
describe.each(['start', 'serve', 'mcp:hosted', 'seller'])('npm run %s', (script) => {
  test('default: on Node.js 20.18.0, refused before any build, our one line on stderr', async () => {
    const { code, stdout, stderr } = await run('npm', ['run', script, '--', '--help'], '20.18.0')
    expect(code).not.toBe(0)
    expect(stderr).toContain('Node.js 20.18.0 cannot run tee-market: its dependencies need Node.js ^20.19.0 || ^22.12.0 || >=24.0.0')
    // npm echoes the pre-script's command; nothing after the check ran.
    expect(stdout).toContain('tsx config/requireSupportedNode.ts && ')
    expect(stdout).not.toMatch(/CLI Building entry|Build success/)
  })
})
