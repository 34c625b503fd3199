import { BaseError } from './BaseError.ts'

/** A devnet contract deployment or wiring transaction did not succeed. */
export class ContractDeployError extends BaseError {
  override name = 'ContractDeployError'
  constructor({ step, transactionHash }: { step: string; transactionHash: string }) {
    super(`Deploying the devnet contracts failed at step "${step}" (transaction "${transactionHash}").`, {
      code: 'contract_deploy_failed',
    })
  }
}
