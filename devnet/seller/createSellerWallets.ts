import { type Account, type Address, type Chain, type Hex, type LocalAccount, type Transport, type WalletClient, createWalletClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

export type KeyLike = Hex | LocalAccount

export type SellerWallet = WalletClient<Transport, Chain, Account>

export type SellerWalletServices = readonly {
  serviceId: bigint
  sellerKey: KeyLike
  signingKey: KeyLike | readonly KeyLike[]
}[]

export type SellerWallets = {
  /** The seller accounts, each once, in the order of their first service. */
  sellers: Address[]
  /** The wallet that submits each service's attestations; one client per seller account. */
  serviceWallets: Map<bigint, SellerWallet>
  /** Each service's signing accounts, oldest first; `addSigningKey` appends to them. */
  signingAccounts: Map<bigint, LocalAccount[]>
}

export const toAccount = (key: KeyLike): LocalAccount => (typeof key === 'string' ? privateKeyToAccount(key) : key)

/** One wallet client per seller account (services of one seller share it, and so its nonces). */
export function createSellerWallets(
  services: SellerWalletServices,
  { chain, transport, pollingIntervalMs }: { chain: Chain; transport: Transport; pollingIntervalMs: number },
): SellerWallets {
  const wallets = new Map<Address, SellerWallet>()
  const serviceWallets = new Map<bigint, SellerWallet>()
  const signingAccounts = new Map<bigint, LocalAccount[]>()
  for (const { serviceId, sellerKey, signingKey } of services) {
    const seller = toAccount(sellerKey)
    const wallet =
      wallets.get(seller.address) ??
      createWalletClient({ account: seller, chain, transport, pollingInterval: pollingIntervalMs, cacheTime: 0 })
    wallets.set(seller.address, wallet)
    serviceWallets.set(serviceId, wallet)
    const keys = (Array.isArray(signingKey) ? signingKey : [signingKey]) as readonly KeyLike[]
    signingAccounts.set(serviceId, [...(signingAccounts.get(serviceId) ?? []), ...keys.map(toAccount)])
  }
  return { sellers: [...wallets.keys()], serviceWallets, signingAccounts }
}
