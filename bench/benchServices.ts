import { type Address, parseEther } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { labelledPrivateKey } from '../devnet/seed/seedAccounts.ts'
import { benchAccounts } from './benchAccounts.ts'

export type BenchService = {
  /** Position in registration order; the service id on a fresh deployment is `index + 1`. */
  index: number
  seller: Address
  modelId: string
  providerIdentity: string
  pricePerCall: bigint
  /** Signs this service's attestations; its address is the registered signing address. */
  signer: PrivateKeyAccount
  /** The key the generator rotates to when it slashes one of the service's jobs. */
  rotatedSigner: PrivateKeyAccount
}

const benchServiceCount = 50

const models = ['llama-3.1-8b-instruct', 'qwen2.5-7b-instruct', 'mistral-7b-instruct-v0.3', 'gemma-2-9b-it', 'phi-3.5-mini-instruct']
const providers = ['together-ai', 'fireworks-ai', 'deepinfra', 'groq', 'novita-ai', 'hyperbolic', 'openai']

/** 50 services spread over the 5 bench sellers (seller = index mod 5), fixed keys and prices. */
export const benchServices: readonly BenchService[] = Array.from({ length: benchServiceCount }, (_, index) => ({
  index,
  seller: benchAccounts.sellers[index % benchAccounts.sellers.length] as Address,
  modelId: models[index % models.length] as string,
  providerIdentity: providers[index % providers.length] as string,
  pricePerCall: parseEther('0.0005') * BigInt(1 + (index % 4)),
  signer: privateKeyToAccount(labelledPrivateKey(`bench signing key ${index}`)),
  rotatedSigner: privateKeyToAccount(labelledPrivateKey(`bench signing key ${index} #2`)),
}))
