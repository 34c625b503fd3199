import { BaseError } from './BaseError.ts'

/** The Node.js running us is older (or other) than what the dependencies need. */
export class UnsupportedNodeError extends BaseError {
  override name = 'UnsupportedNodeError'
  constructor({ version, range }: { version: string; range: string }) {
    super(
      `Node.js ${version} cannot run tee-market: its dependencies need Node.js ${range} (@redocly/cli, which builds the API reference at start, among them). Install Node.js 22 LTS, or 20.19 or later, and run again.`,
      { code: 'unsupported_node' },
    )
  }
}

/** A version range the Node.js check cannot read: ours, so a mistake in the code, said plainly. */
export class NodeRangeError extends BaseError {
  override name = 'NodeRangeError'
  constructor({ comparator }: { comparator: string }) {
    super(`"${comparator}" is not a version comparator the Node.js check reads: write an operator (^, >=, >, <=, <, = or none) and a full version, e.g. ">=20.19.0".`, {
      code: 'node_range',
    })
  }
}
