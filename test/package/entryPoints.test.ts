import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'

// The compiled entry points (`npm test` builds dist/ first) answer --help and --version without
// starting anything: no chain, no port, no deployment record needed.
const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)
const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }

const entryPoints = {
  'bin/tee-market-mcp.js': 'Usage: tee-market-mcp',
  'dist/app/serve.js': 'Usage: npm run serve',
  'dist/app/mcp-hosted.js': 'Usage: npm run mcp:hosted',
  'dist/app/seller.js': 'Usage: npm run seller',
}

describe.each(Object.entries(entryPoints))('%s', (entry, usage) => {
  test('--help', async () => {
    expect(existsSync(join(projectRoot, entry)), `${entry}: run \`npm run build\``).toBe(true)
    const { stdout } = await run(process.execPath, [entry, '--help'], { cwd: projectRoot })
    expect(stdout).toContain(usage)
    expect(stdout).toContain('--version')
  })

  test('--version', async () => {
    const { stdout } = await run(process.execPath, [entry, '--version'], { cwd: projectRoot })
    expect(stdout).toBe(`tee-market ${version}\n`)
  })
})
