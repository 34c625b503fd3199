import {
  type Account,
  type Address,
  type Chain,
  type Hash,
  type LocalAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
  createPublicClient,
  createWalletClient,
  http,
  keccak256,
  parseEther,
  stringToHex,
  zeroAddress,
} from 'viem'
import { type HDAccount, mnemonicToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { expect } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import type { JobStruct } from '../../chain/mappers/toJob.ts'
import type { Deployment } from '../../config/deployment.ts'
import type { SeedMarketReturnType } from '../../devnet/seedMarket.ts'
import { type SignOutputRequestParameters, signOutputRequest } from '../../mcp/run/signOutputRequest.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'

/** Accounts past the seed's #0..#9, so tests never share a nonce with the seed. */
export const testAccount = (addressIndex: number): HDAccount =>
  mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex })

export const price = parseEther('0.001')

type Wallet = WalletClient<Transport, Chain, Account>

export type OutputAnswer = { status: number; body: Record<string, unknown> }

export type SellerFixture = {
  rpcUrl: string
  deployment: Deployment
  publicClient: PublicClient
  /** Null when started without the seed. */
  seedSummary: SeedMarketReturnType | null
  registerService: (parameters: {
    seller: LocalAccount
    signingAddress: Address
    modelId?: string
    providerIdentity?: string
  }) => Promise<bigint>
  rotateSigningAddress: (parameters: { seller: LocalAccount; serviceId: bigint; signingAddress: Address }) => Promise<void>
  createJob: (parameters: { buyer: LocalAccount; serviceId: bigint; prompt: string; timeout?: bigint }) => Promise<bigint>
  readJob: (jobId: bigint) => Promise<JobStruct>
  /** Polls until the job leaves Pending; the test's own timeout bounds the wait. */
  waitForSettled: (jobId: bigint) => Promise<JobStruct>
  /**
   * GET {url}/outputs/{jobId}, signed by `signer` when given, for the job's seller on this chain
   * and escrow unless `request` says otherwise.
   */
  fetchOutput: (
    url: string,
    jobId: bigint | string,
    signer?: LocalAccount,
    request?: Partial<SignOutputRequestParameters>,
  ) => Promise<OutputAnswer>
  stop: () => Promise<void>
}

/** A devnet of this file's own (jobs are created, time moves) plus the calls seller tests make. */
export async function startSellerFixture({ seed = false }: { seed?: boolean } = {}): Promise<SellerFixture> {
  const devnet = await startTestDevnet({ seed })
  const { rpcUrl, deployment } = devnet
  const publicClient = createPublicClient({ chain: hardhat, transport: http(rpcUrl), pollingInterval: 50 })
  const walletOf = (account: Account): Wallet => createWalletClient({ account, chain: hardhat, transport: http(rpcUrl) })
  const confirm = async (hash: Promise<Hash>): Promise<void> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash })
    expect(receipt.status).toBe('success')
  }
  const readJob = (jobId: bigint): Promise<JobStruct> =>
    publicClient.readContract({ address: deployment.escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })

  return {
    rpcUrl,
    deployment,
    publicClient,
    seedSummary: devnet.seedSummary,
    async registerService({ seller, signingAddress, modelId = 'reference-model-1', providerIdentity = 'reference-provider' }) {
      const serviceId = await publicClient.readContract({
        address: deployment.registry,
        abi: registryAbi,
        functionName: 'nextServiceId',
      })
      await confirm(
        walletOf(seller).writeContract({
          address: deployment.registry,
          abi: registryAbi,
          functionName: 'registerService',
          args: [
            keccak256(stringToHex('capability: chat')),
            modelId,
            seller.address,
            signingAddress,
            providerIdentity,
            'centralized',
            true,
            price,
            4_096n,
            stringToHex(`ipfs://${modelId}`),
          ],
        }),
      )
      return serviceId
    },
    async rotateSigningAddress({ seller, serviceId, signingAddress }) {
      await confirm(
        walletOf(seller).writeContract({
          address: deployment.registry,
          abi: registryAbi,
          functionName: 'rotateSigningAddress',
          args: [serviceId, signingAddress],
        }),
      )
    },
    async createJob({ buyer, serviceId, prompt, timeout = 3_600n }) {
      const jobId = await publicClient.readContract({ address: deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' })
      await confirm(
        walletOf(buyer).writeContract({
          address: deployment.escrow,
          abi: escrowAbi,
          functionName: 'createJob',
          args: [serviceId, stringToHex(prompt), timeout],
          value: price,
        }),
      )
      return jobId
    },
    readJob,
    async waitForSettled(jobId) {
      for (;;) {
        const job = await readJob(jobId)
        if (job.state !== 0) return job
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    async fetchOutput(url, jobId, signer, request = {}) {
      const signedJobId = request.jobId ?? (/^[0-9]+$/.test(String(jobId)) ? BigInt(jobId) : 0n)
      const seller = (await readJob(signedJobId).catch(() => undefined))?.seller ?? zeroAddress
      const headers: Record<string, string> =
        signer === undefined
          ? {}
          : await signOutputRequest(signer, { jobId: signedJobId, seller, chainId: hardhat.id, escrow: deployment.escrow, ...request })
      const response = await fetch(`${url}/outputs/${jobId}`, { headers })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    },
    stop: devnet.stop,
  }
}
