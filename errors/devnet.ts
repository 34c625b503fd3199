import { BaseError } from './BaseError.ts'

export class NodeStartError extends BaseError {
  override name = 'NodeStartError'
  constructor({ rpcUrl, output, cause, node = 'hardhat' }: { rpcUrl: string; output: string; cause?: unknown; node?: string }) {
    super(`The ${node} node at "${rpcUrl}" did not start.`, {
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

/** A port of the devnet (its node's, its PCCS's) is taken: whatever listens there is not ours. */
export class PortInUseError extends NodeStartError {
  override name = 'PortInUseError'
  readonly host: string
  readonly port: number
  constructor({ host, port, flag, what = 'the devnet node' }: { host: string; port: number; flag?: string | undefined; what?: string | undefined }) {
    super({ rpcUrl: `http://${host}:${port}`, output: '' })
    this.host = host
    this.port = port
    this.message =
      `Port ${port} on ${host} is already in use (another node?), so ${what} cannot listen there; ` +
      `nothing was sent to it. ${flag === undefined ? 'Choose another port' : `Choose another port with ${flag} <port>`}.`
  }
}
