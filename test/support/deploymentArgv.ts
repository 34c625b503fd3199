import type { Deployment } from '../../config/deployment.ts'

/** The command-line flags that point a server at a deployment's chain and contracts, from its deploy block. */
export function deploymentArgv(deployment: Omit<Deployment, 'agentToken'>): string[] {
  return [
    '--chain-id', String(deployment.chainId),
    '--registry', deployment.registry,
    '--escrow', deployment.escrow,
    '--arbiter', deployment.arbiter,
    '--attestation-verifier', deployment.attestationVerifier,
    '--start-block', deployment.deployBlock,
  ]
}
