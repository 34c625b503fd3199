import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Deployment } from '../../../config/deployment.ts'
import { writeDeploymentRecord } from '../../../devnet/writeDeploymentRecord.ts'

/**
 * The environment that points a server process at a devnet (config variables of loadConfig).
 * Inherited settings that would point it elsewhere are blanked. `run` always keeps a spend ledger:
 * each server gets a fresh one of its own, never the user's ~/.tee-market/spend.json, unless
 * `extra` names one (a test of the ledger across restarts). The deployment is also written as a
 * record (DEPLOYMENT_PATH), where a server finds the devnet's TEE (its 0G contract, PCCS and root),
 * as `npm start`'s printed entry has it find them.
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
    DEPLOYMENT_PATH: recordOf(deployment),
    INDEXER_URL: '',
    HOST: '127.0.0.1',
    MARKET_SPEND_LEDGER: join(tmpdir(), `tee-market-test-ledgers-${process.pid}`, randomUUID(), 'spend.json'),
    ...extra,
  }
}

const records = new Map<Deployment, string>()

function recordOf(deployment: Deployment): string {
  let path = records.get(deployment)
  if (path === undefined) {
    path = join(tmpdir(), `tee-market-test-deployments-${process.pid}`, `${randomUUID()}.json`)
    writeDeploymentRecord(path, deployment)
    records.set(deployment, path)
  }
  return path
}
