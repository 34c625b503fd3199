import type { Address } from 'viem'

export type OutputRequest = {
  jobId: bigint
  /** The job's seller (its on-chain `seller`): a signature for one seller is worthless at another. */
  seller: Address
  chainId: number
  escrow: Address
  /** Unix seconds after which the seller refuses the signature. */
  expires: number
}

/** The header carrying the buyer's signature, and the one carrying its expiry. */
export const outputRequestHeaders = { signature: 'x-buyer-signature', expires: 'x-buyer-signature-expires' } as const

/** How long a buyer's signature is valid from when it is made, and the longest a seller accepts. */
export const outputRequestValiditySec = { signed: 60, accepted: 300 } as const

/**
 * The EIP-191 message a buyer signs to fetch a job's output from its seller. It names the job,
 * the seller, the chain and the escrow, and expires: a signature seen once (in a log, by a proxy)
 * cannot be replayed at another seller, on another deployment, or after a few minutes.
 */
export function outputRequestMessage({ jobId, seller, chainId, escrow, expires }: OutputRequest): string {
  return [
    'tee-market output request',
    `job: ${jobId}`,
    `seller: ${seller.toLowerCase()}`,
    `chain: ${chainId}`,
    `escrow: ${escrow.toLowerCase()}`,
    `expires: ${expires}`,
  ].join('\n')
}
