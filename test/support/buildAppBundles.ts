import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/**
 * Builds dist/app (`npm run serve`, `mcp:hosted`, `seller`) from this checkout once, before any
 * test file starts: files that spawn those bundles run side by side, and a build in one of them
 * (tsup cleans dist/app first) would pull the files from under another's child.
 */
export default function setup(): void {
  execFileSync('npx', ['tsup', '--env.only', 'app'], { cwd: fileURLToPath(new URL('../../', import.meta.url)), stdio: 'ignore' })
}
