import {
  type Account,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
  getAddress,
} from 'viem'
import { arbiterAbi } from '../chain/abi/arbiter.ts'
import { attestationVerifierAbi } from '../chain/abi/attestationVerifier.ts'
import { escrowAbi } from '../chain/abi/escrow.ts'
import { registryAbi } from '../chain/abi/registry.ts'
import { ContractDeployError } from '../errors/deploy.ts'
import arbiterArtifact from './artifacts/Arbiter.json' with { type: 'json' }
import attestationVerifierArtifact from './artifacts/AttestationVerifier.json' with { type: 'json' }
import escrowArtifact from './artifacts/JobEscrow.json' with { type: 'json' }
import registryArtifact from './artifacts/ServiceRegistry.json' with { type: 'json' }
import { type Deployment, DeploymentSchema } from './deployment.ts'

export type DeployContractsReturnType = Deployment

type Receipt = Awaited<ReturnType<PublicClient['waitForTransactionReceipt']>>

/** A seller's bond stays slashable for a day after it asks to withdraw. */
const withdrawalDelaySeconds = 86_400n

/**
 * Deploys the registry (which creates the agent token), the attestation verifier, the arbiter
 * and the escrow, then tells the arbiter where the escrow is. The wallet's account becomes the
 * arbiter's owner and the treasury.
 */
export async function deployContracts(
  walletClient: WalletClient<Transport, Chain, Account>,
  publicClient: PublicClient,
): Promise<DeployContractsReturnType> {
  const treasury = walletClient.account.address
  const confirm = async (step: string, hash: Hash): Promise<Receipt> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new ContractDeployError({ step, transactionHash: hash })
    return receipt
  }
  const deployed = async (step: string, hash: Hash): Promise<{ address: Address; receipt: Receipt }> => {
    const receipt = await confirm(step, hash)
    if (!receipt.contractAddress) throw new ContractDeployError({ step, transactionHash: receipt.transactionHash })
    return { address: getAddress(receipt.contractAddress), receipt }
  }

  const { address: registry, receipt: registryReceipt } = await deployed(
    'registry',
    await walletClient.deployContract({ abi: registryAbi, bytecode: registryArtifact.bytecode as Hex }),
  )
  const { address: attestationVerifier } = await deployed(
    'attestationVerifier',
    await walletClient.deployContract({
      abi: attestationVerifierAbi,
      bytecode: attestationVerifierArtifact.bytecode as Hex,
    }),
  )
  const { address: arbiter } = await deployed(
    'arbiter',
    await walletClient.deployContract({
      abi: arbiterAbi,
      bytecode: arbiterArtifact.bytecode as Hex,
      args: [treasury, withdrawalDelaySeconds],
    }),
  )
  const { address: escrow } = await deployed(
    'escrow',
    await walletClient.deployContract({
      abi: escrowAbi,
      bytecode: escrowArtifact.bytecode as Hex,
      args: [registry, attestationVerifier, arbiter, treasury],
    }),
  )

  await confirm(
    'arbiter.setEscrow',
    await walletClient.writeContract({ address: arbiter, abi: arbiterAbi, functionName: 'setEscrow', args: [escrow] }),
  )
  const agentToken = await publicClient.readContract({
    address: registry,
    abi: registryAbi,
    functionName: 'agentToken',
  })

  return DeploymentSchema.parse({
    chainId: await publicClient.getChainId(),
    registry,
    escrow,
    arbiter,
    attestationVerifier,
    agentToken: getAddress(agentToken),
    deployBlock: registryReceipt.blockNumber.toString(),
  })
}
