import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { buildOpenApiDocument } from './openapi.ts'

const path = fileURLToPath(new URL('../openapi.json', import.meta.url))
const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`

if (process.argv.includes('--check')) {
  const committed = await readFile(path, 'utf8').catch(() => null)
  if (committed !== text) {
    console.error(
      committed === null
        ? 'openapi.json is missing. Run `npm run openapi` and commit the result.'
        : 'openapi.json is out of date with contract/. Run `npm run openapi` and commit the result.',
    )
    process.exit(1)
  }
  console.log('openapi.json is up to date.')
} else {
  await writeFile(path, text)
  console.log(`Wrote ${path}.`)
}
