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
  getContractAddress,
} from 'viem'
import { arbiterAbi } from '../chain/abi/arbiter.ts'
import { attestationVerifierAbi } from '../chain/abi/attestationVerifier.ts'
import { escrowAbi } from '../chain/abi/escrow.ts'
import { inferenceServingMockAbi } from '../chain/abi/inferenceServingMock.ts'
import { registryAbi } from '../chain/abi/registry.ts'
import { reputationVaultAbi } from '../chain/abi/reputationVault.ts'
import { ContractDeployError } from '../errors/deploy.ts'
import arbiterArtifact from './artifacts/Arbiter.json' with { type: 'json' }
import attestationVerifierArtifact from './artifacts/AttestationVerifier.json' with { type: 'json' }
import escrowArtifact from './artifacts/JobEscrow.json' with { type: 'json' }
import inferenceServingArtifact from './artifacts/InferenceServing.json' with { type: 'json' }
import reputationVaultArtifact from './artifacts/ReputationVault.json' with { type: 'json' }
import registryArtifact from './artifacts/ServiceRegistry.json' with { type: 'json' }
import { type Deployment, DeploymentSchema, type DeploymentTee } from '../config/deployment.ts'

export type DeployContractsParameters = {
  /** The devnet's TEE (its PCCS and root): deploys the InferenceServing mock too and records all three. */
  tee?: Omit<DeploymentTee, 'inferenceServing'> | undefined
}

export type DeployContractsReturnType = Deployment

type Receipt = Awaited<ReturnType<PublicClient['waitForTransactionReceipt']>>

/**
 * Deploys the registry (which creates the agent token), the attestation verifier, the reputation
 * vault, the arbiter and the escrow, from the wallet's account, which becomes the treasury. The
 * vault and the arbiter take the escrow's address in their constructors and the escrow takes
 * theirs, as on the reference: the escrow's address is computed from the deployer's nonce before
 * it exists, so every contract is deployed at a known nonce. With `tee`, the mock of 0G's
 * InferenceServing comes last (its deployer is its owner), so the others keep their addresses.
 */
export async function deployContracts(
  walletClient: WalletClient<Transport, Chain, Account>,
  publicClient: PublicClient,
  { tee }: DeployContractsParameters = {},
): Promise<DeployContractsReturnType> {
  const deployer = walletClient.account.address
  const treasury = deployer
  const firstNonce = await publicClient.getTransactionCount({ address: deployer, blockTag: 'pending' })
  const addressAt = (offset: number): Address =>
    getContractAddress({ from: deployer, nonce: BigInt(firstNonce + offset) })
  const planned = {
    registry: addressAt(0),
    attestationVerifier: addressAt(1),
    reputationVault: addressAt(2),
    arbiter: addressAt(3),
    escrow: addressAt(4),
    inferenceServing: addressAt(5),
  }

  const deployed = async (step: keyof typeof planned, hash: Hash): Promise<Receipt> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success' || receipt.contractAddress == null) {
      throw new ContractDeployError({ step, transactionHash: hash })
    }
    // The address follows from the nonce: anything else means another transaction took a nonce.
    if (getAddress(receipt.contractAddress) !== planned[step]) {
      throw new ContractDeployError({ step: `${step} (not at its planned address ${planned[step]})`, transactionHash: hash })
    }
    return receipt
  }

  const registryReceipt = await deployed(
    'registry',
    await walletClient.deployContract({ abi: registryAbi, bytecode: registryArtifact.bytecode as Hex, nonce: firstNonce }),
  )
  await deployed(
    'attestationVerifier',
    await walletClient.deployContract({
      abi: attestationVerifierAbi,
      bytecode: attestationVerifierArtifact.bytecode as Hex,
      nonce: firstNonce + 1,
    }),
  )
  await deployed(
    'reputationVault',
    await walletClient.deployContract({
      abi: reputationVaultAbi,
      bytecode: reputationVaultArtifact.bytecode as Hex,
      args: [planned.escrow],
      nonce: firstNonce + 2,
    }),
  )
  await deployed(
    'arbiter',
    await walletClient.deployContract({
      abi: arbiterAbi,
      bytecode: arbiterArtifact.bytecode as Hex,
      args: [planned.registry, planned.escrow, planned.attestationVerifier, treasury],
      nonce: firstNonce + 3,
    }),
  )
  await deployed(
    'escrow',
    await walletClient.deployContract({
      abi: escrowAbi,
      bytecode: escrowArtifact.bytecode as Hex,
      args: [planned.registry, planned.attestationVerifier, planned.reputationVault, planned.arbiter, treasury],
      nonce: firstNonce + 4,
    }),
  )
  if (tee !== undefined) {
    await deployed(
      'inferenceServing',
      await walletClient.deployContract({
        abi: inferenceServingMockAbi,
        bytecode: inferenceServingArtifact.bytecode as Hex,
        nonce: firstNonce + 5,
      }),
    )
  }
  const agentToken = await publicClient.readContract({
    address: planned.registry,
    abi: registryAbi,
    functionName: 'agentNFT',
  })

  const { inferenceServing, ...marketplace } = planned
  return DeploymentSchema.parse({
    chainId: await publicClient.getChainId(),
    ...marketplace,
    agentToken: getAddress(agentToken),
    deployBlock: registryReceipt.blockNumber.toString(),
    ...(tee === undefined ? {} : { tee: { inferenceServing, ...tee } }),
  })
}
