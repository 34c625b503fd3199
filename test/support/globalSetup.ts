import type { TestProject } from 'vitest/node'
import type { Deployment } from '../../config/deployment.ts'
import { startTestDevnet } from './startTestDevnet.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared, seeded devnet. Read-only: tests that change the chain start their own. */
    devnet: { rpcUrl: string; deployment: Deployment }
  }
}

/** Starts one seeded devnet for every read-only test file; read it with `inject('devnet')`. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const devnet = await startTestDevnet({ seed: true })
  project.provide('devnet', { rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  return devnet.stop
}
