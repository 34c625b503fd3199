import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { ExplorerAssetsMissingError } from '../../errors/http.ts'

/** The explorer's bundle, as `npm run build:explorer` writes it. */
export type ExplorerAssets = { js: string; css: string; teeJs: string }

const distPath = fileURLToPath(new URL('../../explorer/dist/', import.meta.url))

/** Reads the built explorer once, at start-up; throws ExplorerAssetsMissingError when it was not built. */
export async function readExplorerAssets({ directory = distPath }: { directory?: string } = {}): Promise<ExplorerAssets> {
  try {
    const [js, css, teeJs] = await Promise.all([
      readFile(`${directory}/explorer.js`, 'utf8'),
      readFile(`${directory}/explorer.css`, 'utf8'),
      readFile(`${directory}/explorer-tee.js`, 'utf8'),
    ])
    return { js, css, teeJs }
  } catch (cause) {
    throw new ExplorerAssetsMissingError({ path: directory, cause })
  }
}
