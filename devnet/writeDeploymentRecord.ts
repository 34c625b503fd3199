import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Deployment } from '../config/deployment.ts'

/** Writes the record the devnet preset reads; via a rename, so a reader never sees half a file. */
export function writeDeploymentRecord(path: string, deployment: Deployment): void {
  mkdirSync(dirname(path), { recursive: true })
  const partial = `${path}.${process.pid}.tmp`
  writeFileSync(partial, `${JSON.stringify(deployment, null, 2)}\n`)
  renameSync(partial, path)
}
