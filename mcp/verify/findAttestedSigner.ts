import type { Address, Client } from 'viem'
import { getBlock, getBlockNumber, getContractEvents } from 'viem/actions'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { findBlockByTimestamp } from '../../chain/read/findBlockByTimestamp.ts'

export type FindAttestedSignerParameters = {
  escrow: Address
  jobId: bigint
  /** The job's `createdAt` (unix seconds): its attestation is at or after that block. */
  createdAt: bigint
  /** The job's `timeout` (expiry, unix seconds): its attestation is before it. */
  timeout: bigint
  /** Widest `eth_getLogs` range to ask for (public RPCs refuse wide ones). */
  maxLogRange?: bigint
}

/** The signer the escrow recovered when it accepted the attestation; undefined when not found. */
export type FindAttestedSignerReturnType = Address | undefined

/**
 * Reads the `recoveredSigner` of the job's `JobAttested` event, filtered by the indexed job id.
 * The search starts at the job's creation block and stops at its expiry, so on a devnet it is a
 * single `eth_getLogs`; on a long chain it walks windows a public RPC accepts.
 */
export async function findAttestedSigner(
  client: Client,
  { escrow, jobId, createdAt, timeout, maxLogRange = 5_000n }: FindAttestedSignerParameters,
): Promise<FindAttestedSignerReturnType> {
  const head = await getBlockNumber(client)
  let fromBlock = await findBlockByTimestamp(client, { timestamp: createdAt })
  while (fromBlock <= head) {
    const toBlock = fromBlock + maxLogRange - 1n < head ? fromBlock + maxLogRange - 1n : head
    const [log] = await getContractEvents(client, {
      address: escrow,
      abi: escrowAbi,
      eventName: 'JobAttested',
      args: { jobId },
      fromBlock,
      toBlock,
    })
    if (log !== undefined) return log.args.recoveredSigner
    if (toBlock === head) return undefined
    const last = await getBlock(client, { blockNumber: toBlock })
    if (last.timestamp >= timeout) return undefined
    fromBlock = toBlock + 1n
  }
  return undefined
}
