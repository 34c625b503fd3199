import { createPublicClient, createTestClient, createWalletClient, http, keccak256, parseEther, stringToHex, type Hash } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { escrowAbi } from '../../../chain/abi/escrow.ts'
import { registryAbi } from '../../../chain/abi/registry.ts'
import { buildAttestationText } from '../../../chain/attestation/buildAttestationText.ts'
import { signAttestation } from '../../../chain/attestation/signAttestation.ts'
import type { Deployment } from '../../../config/deployment.ts'
import { devnetMnemonic } from '../../../devnet/seed/seedAccounts.ts'

export type CreateMarketDriverParameters = {
  rpcUrl: string
  deployment: Pick<Deployment, 'registry' | 'escrow'>
  /** Mnemonic index of the seller; the buyer is the next one. The seed uses #0..#10. */
  accountIndex?: number
}

export type MarketDriver = {
  registerService(parameters?: { price?: bigint }): Promise<bigint>
  createJob(parameters: { serviceId: bigint; amount?: bigint; timeoutSeconds?: bigint }): Promise<bigint>
  /** Submits a valid attestation: the job goes to Settled in one transaction. */
  settleJob(jobId: bigint): Promise<Hash>
  /** Disputes a Settled job as its buyer, with the least bond: the job goes to Disputed. */
  disputeJob(jobId: bigint): Promise<Hash>
  /** Mines empty blocks. */
  mine(blocks: number): Promise<void>
  snapshot(): Promise<Hash>
  revert(id: Hash): Promise<void>
  blockNumber(): Promise<bigint>
}

/** Writes to a test's own devnet: one seller with one signing key, one buyer, waiting for each receipt. */
export function createMarketDriver({ rpcUrl, deployment, accountIndex = 20 }: CreateMarketDriverParameters): MarketDriver {
  const chain = { ...hardhat, rpcUrls: { default: { http: [rpcUrl] } } }
  const transport = http(rpcUrl)
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 })
  const testClient = createTestClient({ chain, transport, mode: 'hardhat' })
  const seller = createWalletClient({ chain, transport, account: mnemonicToAccount(devnetMnemonic, { addressIndex: accountIndex }) })
  const buyer = createWalletClient({ chain, transport, account: mnemonicToAccount(devnetMnemonic, { addressIndex: accountIndex + 1 }) })
  const signer = privateKeyToAccount(keccak256(stringToHex(`indexer test signing key ${accountIndex}`)))
  const { registry, escrow } = deployment

  const confirm = async (hash: Hash): Promise<Hash> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
    return hash
  }

  return {
    async registerService({ price = parseEther('0.01') } = {}) {
      const serviceId = await publicClient.readContract({ address: registry, abi: registryAbi, functionName: 'nextServiceId' })
      await confirm(
        await seller.writeContract({
          address: registry,
          abi: registryAbi,
          functionName: 'registerService',
          args: [
            keccak256(stringToHex('capability: indexer test')),
            'indexer-test-model',
            seller.account.address,
            signer.address,
            'indexer-test-provider',
            'centralized',
            false,
            price,
            4_096n,
            stringToHex('ipfs://indexer-test'),
          ],
        }),
      )
      return serviceId
    },
    async createJob({ serviceId, amount = parseEther('0.01'), timeoutSeconds = 3_600n }) {
      const jobId = await publicClient.readContract({ address: escrow, abi: escrowAbi, functionName: 'nextJobId' })
      await confirm(
        await buyer.writeContract({
          address: escrow,
          abi: escrowAbi,
          functionName: 'createJob',
          args: [serviceId, stringToHex(`prompt for job ${jobId} ${amount}`), timeoutSeconds],
          value: amount,
        }),
      )
      return jobId
    },
    async settleJob(jobId) {
      const output = keccak256(stringToHex(`output of job ${jobId} at ${Date.now()}`))
      const text = buildAttestationText({
        contentHash: output,
        usageHash: keccak256(stringToHex(`usage ${jobId}`)),
        providerType: 'centralized',
        providerIdentity: 'indexer-test-provider',
        tlsCertFingerprint: keccak256(stringToHex('tls')),
      })
      const signature = await signAttestation(signer, { text })
      return confirm(
        await seller.writeContract({
          address: escrow,
          abi: escrowAbi,
          functionName: 'submitAttestation',
          args: [jobId, output, keccak256(stringToHex(`chat ${jobId} ${output}`)), text, signature],
        }),
      )
    },
    async disputeJob(jobId) {
      const bond = await publicClient.readContract({ address: escrow, abi: escrowAbi, functionName: 'DISPUTE_BOND' })
      return confirm(await buyer.writeContract({ address: escrow, abi: escrowAbi, functionName: 'dispute', args: [jobId], value: bond }))
    },
    async mine(blocks) {
      await testClient.mine({ blocks })
    },
    snapshot: () => testClient.snapshot(),
    async revert(id) {
      await testClient.revert({ id })
    },
    blockNumber: () => publicClient.getBlockNumber({ cacheTime: 0 }),
  }
}
