import type { Deployment } from '../../../config/deployment.ts'

/**
 * The environment that points a server process at a devnet (config variables of loadConfig).
 * Inherited settings that would point it elsewhere are blanked.
 */
export function devnetEnv(
  { rpcUrl, deployment }: { rpcUrl: string; deployment: Deployment },
  extra: Record<string, string> = {},
): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('MARKET_'),
    ),
  )
  return {
    ...inherited,
    MARKET_NETWORK: 'devnet',
    RPC_URL: rpcUrl,
    CHAIN_ID: String(deployment.chainId),
    REGISTRY_ADDRESS: deployment.registry,
    ESCROW_ADDRESS: deployment.escrow,
    ARBITER_ADDRESS: deployment.arbiter,
    ATTESTATION_VERIFIER_ADDRESS: deployment.attestationVerifier,
    START_BLOCK: deployment.deployBlock,
    INDEXER_URL: '',
    HOST: '127.0.0.1',
    ...extra,
  }
}
