import { readFileSync } from 'node:fs'
import { ConfigError } from '../errors/config.ts'
import { DeploymentSchema, type Deployment } from './deployment.ts'

/** Reads the record `npm start` writes after deploying the devnet contracts. */
export function readDeploymentRecord(path: string): Deployment {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (cause) {
    throw new ConfigError(
      `The devnet deployment record "${path}" could not be read. Start the devnet with \`npm start\`, pass --deployment, or pass --registry, --escrow, --arbiter and --attestation-verifier.`,
      { cause },
    )
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    throw new ConfigError(`The devnet deployment record "${path}" is not valid JSON.`, { cause })
  }
  const result = DeploymentSchema.safeParse(json)
  if (!result.success) {
    const fields = [...new Set(result.error.issues.map((issue) => issue.path.join('.')))].join(', ')
    throw new ConfigError(`The devnet deployment record "${path}" is malformed (fields: ${fields}).`, {
      cause: result.error,
    })
  }
  return result.data
}
