import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'

/** Where screenshots go: a gitignored folder a person (or CI) opens after the run. */
export const screenshotDirectory = fileURLToPath(new URL('../../artifacts/explorer/', import.meta.url))

/** Saves the whole page as test/artifacts/explorer/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDirectory, { recursive: true })
  await page.screenshot({ path: `${screenshotDirectory}${name}.png`, fullPage: true })
}
