import type { Address, Client, Hash, Hex, LocalAccount } from 'viem'
import { getTransactionCount, sendRawTransaction } from 'viem/actions'

export type CreateNonceSenderParameters = {
  account: LocalAccount
  chainId: number
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  /** A fixed limit: estimating every seed transaction would double the round trips. */
  gas?: bigint
}

export type NonceSender = {
  address: Address
  /** Signs locally and sends; resolves once the node accepted (and, automining, mined) it. */
  send: (transaction: { to: Address; data: Hex; value?: bigint }) => Promise<Hash>
}

/**
 * Sends one account's transactions with explicit nonces, one after another even when called
 * concurrently: an automining hardhat node rejects a nonce that arrives ahead of its predecessor.
 */
export function createNonceSender(
  client: Client,
  { account, chainId, maxFeePerGas, maxPriorityFeePerGas, gas = 3_000_000n }: CreateNonceSenderParameters,
): NonceSender {
  let queue: Promise<unknown> = Promise.resolve()
  let nextNonce: number | undefined

  const sendNow = async ({ to, data, value = 0n }: { to: Address; data: Hex; value?: bigint }): Promise<Hash> => {
    nextNonce ??= await getTransactionCount(client, { address: account.address, blockTag: 'pending' })
    const nonce = nextNonce
    const serializedTransaction = await account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce,
      to,
      data,
      value,
      gas,
      maxFeePerGas,
      maxPriorityFeePerGas,
    })
    try {
      const hash = await sendRawTransaction(client, { serializedTransaction })
      nextNonce = nonce + 1
      return hash
    } catch (error) {
      // A reverted transaction may still have been mined: ask the node for the nonce next time.
      nextNonce = undefined
      throw error
    }
  }

  return {
    address: account.address,
    send: (transaction) => {
      const sent = queue.then(() => sendNow(transaction))
      queue = sent.catch(() => undefined)
      return sent
    },
  }
}
