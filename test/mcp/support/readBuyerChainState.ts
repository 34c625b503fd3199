import { createPublicClient, http, type Address } from 'viem'
import { escrowAbi } from '../../../chain/abi/escrow.ts'
import type { StartDevnetReturnType } from '../../../devnet/startDevnet.ts'

export type BuyerChainState = { nextJobId: bigint; nonce: number }

/** What a paid run changes on chain, read with viem: the escrow's next job id and the buyer's nonce. */
export async function readBuyerChainState(devnet: Pick<StartDevnetReturnType, 'rpcUrl' | 'deployment'>, buyer: Address): Promise<BuyerChainState> {
  const client = createPublicClient({ transport: http(devnet.rpcUrl) })
  const [nextJobId, nonce] = await Promise.all([
    client.readContract({ address: devnet.deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' }),
    client.getTransactionCount({ address: buyer }),
  ])
  return { nextJobId, nonce }
}
