import type { Config } from '../config/ConfigSchema.ts'
import { loadConfig } from '../config/loadConfig.ts'
import { unlimitedClientFlags } from './unlimitedClientFlags.ts'

/** Stands for every contract address: a server over a store filled by the bench reads no chain. */
const anyAddress = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

/**
 * The configuration of a bench server over a store of its own (no chain behind it): devnet, on
 * 127.0.0.1, the hosted MCP server on a free port, logging nothing; `argv` adds flags.
 */
export function loadStoreServerConfig(argv: readonly string[] = []): Config {
  return loadConfig({
    argv: [
      '--network', 'devnet', '--chain-id', '31337', '--registry', anyAddress, '--escrow', anyAddress, '--arbiter', anyAddress,
      '--attestation-verifier', anyAddress, '--start-block', '0', '--host', '127.0.0.1', '--mcp-port', '0', '--log-level', 'silent',
      ...unlimitedClientFlags,
      ...argv,
    ],
    env: {},
  })
}
