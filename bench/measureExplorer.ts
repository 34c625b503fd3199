import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { loadConfig } from '../config/loadConfig.ts'
import { startDevnet } from '../devnet/startDevnet.ts'
import { buildExplorer } from '../explorer/buildExplorer.ts'
import { readExplorerAssets } from '../server/explorer/readExplorerAssets.ts'
import { startRestIndexer } from '../server/startRestIndexer.ts'
import { getFreePort } from '../test/support/getFreePort.ts'
import { deploymentArgv } from '../test/support/deploymentArgv.ts'
import { percentile } from './percentile.ts'

/**
 * `npm run bench:explorer`: the explorer's budgets. Its JavaScript gzipped (≤ 60 KB), and how long
 * after navigation the market page has rendered its stats, services and newest jobs (≤ 500 ms) on
 * the seeded devnet, in headless chromium, over fresh pages (cold: new profile cache each time).
 */
const runs = 15
const targets = { jsGzipKb: 60, firstRenderMs: 500 }

await buildExplorer({ outdir: fileURLToPath(new URL('../explorer/dist', import.meta.url)) })
const { js } = await readExplorerAssets()
const jsGzipKb = gzipSync(js).length / 1024

const devnet = await startDevnet({ port: await getFreePort(), seed: true })
const { deployment } = devnet
const config = loadConfig({
  argv: [
    '--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(deployment),
    '--port', '0', '--host', '127.0.0.1',
  ],
  env: {},
})
const server = await startRestIndexer(config, { mode: 'production', logger: false })
while ((await fetch(`${server.url}/healthz`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
/** The page's document, as the predicate below reads it there (the bench is typed for node, without the DOM's types). */
declare const document: { querySelector(selector: string): unknown }
/** The market page has rendered once its stats, its services and its newest jobs are all on screen. */
const renderedParts = ['[data-stat="services"]', '[data-table="services"] tbody tr', '[data-table="jobs"] tbody tr']
/**
 * Evaluated in the page at each frame: the time once every part is shown, else false. A function,
 * not a string: playwright evals a string predicate again at every frame, from the page's own
 * animation-frame callback, where the explorer's CSP (`script-src 'self'`, no 'unsafe-eval')
 * refuses it (EvalError, on some pages and not others); a function predicate is compiled once,
 * inside the DevTools protocol call that starts the wait (which CSP does not govern), then called.
 */
const rendered = (selectors: string[]): number | false => selectors.every((selector) => document.querySelector(selector) !== null) && performance.now()
/**
 * Evaluated in the page: the first contentful paint's time, once Chromium has recorded it (it may
 * not have when the parts are found), NaN after 5 s without one.
 */
const firstContentfulPaint = `new Promise((resolve) => {
  setTimeout(() => resolve(NaN), 5000)
  new PerformanceObserver((list) => {
    const entry = list.getEntriesByName('first-contentful-paint')[0]
    if (entry !== undefined) resolve(entry.startTime)
  }).observe({ type: 'paint', buffered: true })
})`
const renders: number[] = []
const paints: number[] = []
try {
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${server.url}/`, { waitUntil: 'commit' })
    // performance.now() counts from the navigation's start: the time at which every part is shown.
    const handle = await page.waitForFunction(rendered, renderedParts, { polling: 'raf' })
    renders.push((await handle.jsonValue()) as number)
    paints.push(await page.evaluate<number>(firstContentfulPaint))
    if (process.env.EXPLORER_TIMING && run === runs - 1)
      console.log(await page.evaluate<string>(`performance.getEntriesByType('resource').map((e) => e.name.replace(location.origin, '') + ' ' + e.startTime.toFixed(0) + '-' + e.responseEnd.toFixed(0)).join('\\n')`))
    await context.close()
  }
} finally {
  await browser.close()
  await server.stop()
  await devnet.stop()
}

const median = (values: number[]): number => percentile([...values].sort((a, b) => a - b), 50)
const firstRenderMs = median(renders)
console.log(`explorer.js gzipped        ${jsGzipKb.toFixed(1)} KB (target ≤ ${targets.jsGzipKb} KB)`)
console.log(`market page rendered after ${firstRenderMs.toFixed(0)} ms median, ${Math.max(...renders).toFixed(0)} ms max of ${runs} (target ≤ ${targets.firstRenderMs} ms)`)
console.log(`first contentful paint     ${median(paints).toFixed(0)} ms median`)
const failed = jsGzipKb > targets.jsGzipKb || firstRenderMs > targets.firstRenderMs
process.exit(failed ? 1 : 0)
