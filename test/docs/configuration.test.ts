import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import type { ConfigKey } from '../../config/ConfigSchema.ts'
import { configSources, loadConfig } from '../../config/loadConfig.ts'

// docs/configuration.md lists every setting: each flag and variable config/loadConfig.ts reads has
// a row, and a row's default, when it is one number, is the one the program starts with.

const page = readFileSync(join(fileURLToPath(new URL('../..', import.meta.url)), 'docs/configuration.md'), 'utf8')
/** The settings table's rows: the first backticked word of the flag, variable and default cells. */
const rows = [...page.matchAll(/^\| `--([a-z-]+)`[^|]*\| `([A-Z_]+)`[^|]*\| ([^|]*) \|/gm)].map(([, flag, variable, defaultCell]) => ({ flag, variable, defaultCell: (defaultCell as string).trim() }))
const sources = Object.entries(configSources) as [ConfigKey, { flag: string; env: string }][]

test('default: every flag and variable has a row, with the flag and its variable side by side', () => {
  const missing = sources.filter(([, { flag, env }]) => !rows.some((row) => row.flag === flag && row.variable === env)).map(([, { flag, env }]) => `--${flag} / ${env}`)
  expect(missing).toEqual([])
})

test("a row's default, when it is one number, is the program's", () => {
  const config = loadConfig({ argv: ['--network', '0g-mainnet'], env: {} }) as unknown as Record<ConfigKey, unknown>
  const numeric = rows.filter(({ defaultCell }) => /^`\d+`$/.test(defaultCell))
  expect(numeric.length).toBeGreaterThanOrEqual(8)
  const differing = numeric.flatMap(({ flag, defaultCell }) => {
    const key = sources.find(([, source]) => source.flag === flag)?.[0]
    const actual = key === undefined ? undefined : String(config[key])
    return actual === defaultCell.slice(1, -1) ? [] : [`--${flag}: documented ${defaultCell}, starts with ${actual}`]
  })
  expect(differing).toEqual([])
})
