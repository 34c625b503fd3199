import { type Address, type Client, type Hash, type Hex, numberToHex, parseEther } from 'viem'

export type SendAsImpersonatedParameters = { from: Address; to: Address; data: Hex }

/** What an unfunded sender is given before its first transaction: gas for a great many record updates. */
const gasMoney = parseEther('1')

/**
 * Sends a transaction from an address whose key nobody holds, on the devnet's hardhat node only
 * (`hardhat_impersonateAccount`): 0G's provider is the sender of its record, and the seeded
 * providers' addresses are labels, not keys. Funds the address first when it has nothing.
 */
export async function sendAsImpersonated(client: Client, { from, to, data }: SendAsImpersonatedParameters): Promise<Hash> {
  // The node's own methods, outside viem's typed RPC schema.
  const request = client.request as (arguments_: { method: string; params: unknown[] }) => Promise<unknown>
  await request({ method: 'hardhat_impersonateAccount', params: [from] })
  const balance = BigInt((await request({ method: 'eth_getBalance', params: [from, 'latest'] })) as Hex)
  if (balance < gasMoney / 2n) await request({ method: 'hardhat_setBalance', params: [from, numberToHex(gasMoney)] })
  return (await request({ method: 'eth_sendTransaction', params: [{ from, to, data }] })) as Hash
}
