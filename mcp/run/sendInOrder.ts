import type { Address, Client } from 'viem'
import { getTransactionCount } from 'viem/actions'

/** What a turn in an account's queue may use to sign. */
export type SendInOrderTurn = {
  /** The nonce to sign with: the node's pending count, never below one this process saw mined. */
  nextNonce: () => Promise<number>
  /** Records a transaction of this account as mined, so no later one signs its nonce again, even through a node that lags. */
  mined: (nonce: number) => void
}

export type SendInOrderParameters = {
  address: Address
}

type Lane = {
  /** Settles when the last turn queued has ended. */
  tail: Promise<void>
  /** One above the highest nonce seen mined; 0 before any. */
  nonceFloor: number
}

const lanes = new Map<Address, Lane>()

/**
 * Runs `send` when every earlier turn of the same account in this process has ended, so each signs
 * with the nonce after the last one's: two concurrent `run`s never share a nonce, and one never
 * replaces the other. A turn lasts from reading the nonce to the receipt.
 */
export async function sendInOrder<result>(
  client: Client,
  { address }: SendInOrderParameters,
  send: (turn: SendInOrderTurn) => Promise<result>,
): Promise<result> {
  const lane = lanes.get(address) ?? { tail: Promise.resolve(), nonceFloor: 0 }
  lanes.set(address, lane)
  const previous = lane.tail
  let end!: () => void
  lane.tail = new Promise((resolve) => (end = resolve))
  await previous
  try {
    return await send({
      nextNonce: async () => Math.max(await getTransactionCount(client, { address, blockTag: 'pending' }), lane.nonceFloor),
      mined: (nonce) => {
        lane.nonceFloor = Math.max(lane.nonceFloor, nonce + 1)
      },
    })
  } finally {
    end()
  }
}
