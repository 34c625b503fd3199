import { NodeRangeError, UnsupportedNodeError } from '../errors/runtime.ts'

/**
 * The Node.js versions the dependencies run on, as package.json's `engines.node` says (a test
 * keeps the two equal, and checks it against every installed package's own range): @redocly/cli
 * 2.77, which `npm start` and `npm run serve` run to build `/docs`, needs `>=20.19.0 <21 ||
 * >=22.12.0`; vite 8 and rolldown (the test runner's) `^20.19.0 || >=22.12.0`; vitest 4.1 leaves out
 * 21 and 23 (`^20.0.0 || ^22.0.0 || >=24.0.0`). Every other package asks for less.
 */
export const supportedNodeRange = '^20.19.0 || ^22.12.0 || >=24.0.0'

export type CheckNodeVersionParameters = {
  /** `process.versions.node`, e.g. `20.18.1`. */
  version: string
  /** Alternatives joined by `||`, each comparators (`^`, `>=`, `>`, `<=`, `<`, `=`) joined by spaces. */
  range?: string | undefined
}

/** Undefined when `version` is in `range`, else the error to show. */
export type CheckNodeVersionReturnType = UnsupportedNodeError | undefined

type Version = readonly [number, number, number]

export function checkNodeVersion({ version, range = supportedNodeRange }: CheckNodeVersionParameters): CheckNodeVersionReturnType {
  const parsed = parseVersion(version)
  const satisfied =
    parsed !== undefined &&
    range.split('||').some((alternative) => alternative.trim().split(/\s+/).every((comparator) => satisfies(parsed, comparator)))
  return satisfied ? undefined : new UnsupportedNodeError({ version, range })
}

function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(text)
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])]
}

function satisfies(version: Version, comparator: string): boolean {
  const match = /^(\^|>=|>|<=|<|=)?(.*)$/.exec(comparator)
  const bound = parseVersion(match?.[2] ?? '')
  if (bound === undefined) throw new NodeRangeError({ comparator })
  const order = compare(version, bound)
  switch (match?.[1]) {
    case '^':
      return order >= 0 && version[0] === bound[0]
    case '>=':
      return order >= 0
    case '>':
      return order > 0
    case '<=':
      return order <= 0
    case '<':
      return order < 0
    default:
      return order === 0
  }
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]
}
