import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'
import { checkNodeVersion, supportedNodeRange } from '../../config/checkNodeVersion.ts'

// The oracle is npm's own range reader (semver, which npm uses for `engines`), not the code under test.
const semver = createRequire(import.meta.url)('semver') as { satisfies: (version: string, range: string) => boolean }
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } | string[] }>
}

/** Every installed, non-optional package's Node.js range (optional ones are skipped by npm where they do not fit). */
const dependencyRanges = Object.entries(lock.packages).flatMap(([path, entry]) => {
  const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node
  return path === '' || entry.optional === true || range === undefined ? [] : [{ path, range }]
})

const versions = ['16.20.2', '18.20.8', '20.0.0', '20.9.0', '20.18.3', '20.19.0', '20.20.2', '21.7.3', '22.0.0', '22.11.0', '22.12.0', '22.20.0', '23.11.1', '24.11.0', '25.1.0']

test('default: this Node.js is supported; 20.18 is refused with one sentence saying what to install', () => {
  expect(checkNodeVersion({ version: process.versions.node })).toBeUndefined()
  const refusal = checkNodeVersion({ version: '20.18.0' })
  expect(refusal?.message).toMatchInlineSnapshot(
    `"Node.js 20.18.0 cannot run tee-market: its dependencies need Node.js ^20.19.0 || ^22.12.0 || >=24.0.0 (@redocly/cli, which builds the API reference at start, among them). Install Node.js 22 LTS, or 20.19 or later, and run again."`,
  )
  expect(refusal?.message).not.toContain('\n')
  expect(refusal?.code).toBe('unsupported_node')
})

describe('the range', () => {
  test('is what package.json says in engines.node', () => {
    expect(packageJson.engines.node).toBe(supportedNodeRange)
  })

  test.each(versions)('%s: supported exactly when every dependency that runs accepts it', (version) => {
    const refusing = dependencyRanges.filter(({ range }) => !semver.satisfies(version, range)).map(({ path }) => path)
    expect(checkNodeVersion({ version }) === undefined, refusing.join(', ')).toBe(refusing.length === 0)
  })
})

describe('range', () => {
  const ranges = ['>=20.0.0', '>=20.19.0 <21.0.0 || >=22.12.0', '^22.20.0 || ^24.12.0 || >=25.0.0', '=20.19.0', '>20.19.0 <=22.0.0', '20.19.0']
  test.each(ranges)('%s reads as npm reads it', (range) => {
    for (const version of versions) expect(checkNodeVersion({ version, range }) === undefined, version).toBe(semver.satisfies(version, range))
  })

  test('a comparator it cannot read is an error saying how to write one', () => {
    expect(() => checkNodeVersion({ version: '20.19.0', range: '~20.19' })).toThrow(
      '"~20.19" is not a version comparator the Node.js check reads: write an operator (^, >=, >, <=, <, = or none) and a full version, e.g. ">=20.19.0".',
    )
  })

  test('a version that is not x.y.z is refused', () => {
    expect(checkNodeVersion({ version: '20.19' })?.name).toBe('UnsupportedNodeError')
  })
})
