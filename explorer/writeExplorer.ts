import { fileURLToPath } from 'node:url'
import { buildExplorer } from './buildExplorer.ts'

/** `npm run build:explorer`: writes the explorer's assets to explorer/dist, which the server serves. */
const outdir = fileURLToPath(new URL('dist', import.meta.url))
const { sizes } = await buildExplorer({ outdir })
console.log(`Wrote ${outdir}: ${Object.entries(sizes).map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KB`).join(', ')}.`)
