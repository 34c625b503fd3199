import { BaseError } from './BaseError.ts'

export class NodeStartError extends BaseError {
  override name = 'NodeStartError'
  constructor({ rpcUrl, output, cause }: { rpcUrl: string; output: string; cause?: unknown }) {
    super(`The hardhat node at "${rpcUrl}" did not start.`, {
      code: 'node_start_failed',
      details: output,
      cause,
    })
  }
}

export class SeedError extends BaseError {
  override name = 'SeedError'
  constructor(step: string, { cause }: { cause?: unknown } = {}) {
    super(`Seeding the devnet failed at step "${step}".`, { code: 'seed_failed', cause })
  }
}
