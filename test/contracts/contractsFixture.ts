import {
  type Abi,
  type Account,
  BaseError as ViemBaseError,
  type Chain,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  type Hash,
  http,
  keccak256,
  type PublicClient,
  stringToHex,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import { agentTokenAbi } from '../../chain/abi/agentToken.ts'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { attestationVerifierAbi } from '../../chain/abi/attestationVerifier.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { reputationVaultAbi } from '../../chain/abi/reputationVault.ts'
import type { Deployment } from '../../config/deployment.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'

/** Hardhat's default accounts: #0 deploys, #1 sells, #2 buys, #3 is anyone else. */
const mnemonic = 'test test test test test test test test test test test junk'

export type Wallet = WalletClient<Transport, Chain, Account>

export type ContractsFixture = {
  deployment: Deployment
  publicClient: PublicClient
  testClient: TestClient<'hardhat'>
  /** Account #0: deployer and treasury. */
  owner: Wallet
  seller: Wallet
  buyer: Wallet
  stranger: Wallet
  /** The TEE key a service attests with: it only signs messages, it never sends transactions. */
  signer: ReturnType<typeof privateKeyToAccount>
}

/**
 * Starts an unseeded devnet of the test file's own (a hardhat node with the contracts deployed
 * from account #0 by `deployContracts`) and rolls the chain back after every test, so each test
 * starts from the same fresh deployment.
 */
export function useContractsFixture(): ContractsFixture {
  const fixture = {} as ContractsFixture
  let stopNode: (() => Promise<void>) | undefined
  let snapshot: Hash | undefined

  beforeAll(async () => {
    const devnet = await startTestDevnet({ seed: false })
    stopNode = devnet.stop
    // Hardhat reports reverts as JSON-RPC internal errors, which viem would otherwise retry with backoff.
    const transport = http(devnet.rpcUrl, { retryCount: 0 })
    const wallet = (addressIndex: number): Wallet =>
      createWalletClient({ account: mnemonicToAccount(mnemonic, { addressIndex }), chain: hardhat, transport })

    fixture.publicClient = createPublicClient({ chain: hardhat, transport, pollingInterval: 50 })
    fixture.testClient = createTestClient({ mode: 'hardhat', chain: hardhat, transport })
    fixture.owner = wallet(0)
    fixture.seller = wallet(1)
    fixture.buyer = wallet(2)
    fixture.stranger = wallet(3)
    fixture.signer = privateKeyToAccount(keccak256(stringToHex('test tee signing key')))
    fixture.deployment = devnet.deployment
  })

  beforeEach(async () => {
    snapshot = await fixture.testClient.snapshot()
  })

  afterEach(async () => {
    if (snapshot) await fixture.testClient.revert({ id: snapshot })
  })

  afterAll(async () => {
    await stopNode?.()
  })

  return fixture
}

const everyAbi = [
  ...registryAbi,
  ...escrowAbi,
  ...arbiterAbi,
  ...attestationVerifierAbi,
  ...reputationVaultAbi,
  ...agentTokenAbi,
] as Abi

/**
 * Asserts that `action` reverted with the custom error `errorName`, decoding the revert data
 * against every contract's errors so a revert bubbled up from a nested call is named too.
 */
export async function expectRevert(action: Promise<unknown>, errorName: string): Promise<readonly unknown[]> {
  const error = await action.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error, `expected a revert with ${errorName}`).toBeInstanceOf(ViemBaseError)
  const reverted = (error as ViemBaseError).walk((cause) => cause instanceof ContractFunctionRevertedError)
  expect(reverted, `expected a contract revert, got: ${String(error)}`).toBeInstanceOf(ContractFunctionRevertedError)
  const raw = (reverted as ContractFunctionRevertedError).raw
  expect(raw, 'the revert carried no data').toBeDefined()
  const decoded = decodeErrorResult({ abi: everyAbi, data: raw! })
  expect(decoded.errorName).toBe(errorName)
  return decoded.args ?? []
}
