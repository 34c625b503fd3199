import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type BrowserContextOptions, type LaunchOptions } from 'playwright-core'

/** Debian's chromium (`apt-get install chromium`): playwright-core downloads no browser of its own. */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Nothing in the background may reach the network: every request a page makes is the page's own. */
export const browserArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export type LaunchedBrowser = {
  context: BrowserContext
  /** Every URL requested by any page of the context, in order (ones the page's CSP stopped left out: they never left the browser). */
  requests: string[]
  close: () => Promise<void>
}

/** A headless chromium with a fresh profile, recording the requests its pages make. */
export async function launchBrowser(options: BrowserContextOptions & Pick<LaunchOptions, 'args'> = {}): Promise<LaunchedBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'explorer-chromium-'))
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: browserArgs, ...options })
  const requests: string[] = []
  context.on('request', (request) => requests.push(request.url()))
  context.on('requestfailed', (request) => {
    if (request.failure()?.errorText !== 'csp') return
    const index = requests.lastIndexOf(request.url())
    if (index !== -1) requests.splice(index, 1)
  })
  return {
    context,
    requests,
    close: async () => {
      await context.close()
      await rm(userDataDir, { recursive: true, force: true })
    },
  }
}
