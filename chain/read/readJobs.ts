import { setImmediate } from 'node:timers/promises'
import type { Address, Client } from 'viem'
import { escrowAbi } from '../abi/escrow.ts'
import { toJob } from '../mappers/toJob.ts'
import type { Job } from '../../contract/job.ts'
import { readByIds } from './readByIds.ts'

export type ReadJobsParameters = {
  escrow: Address
  ids: readonly bigint[]
  /** Block whose state is read (default: the latest). */
  blockNumber?: bigint | undefined
}
export type ReadJobsReturnType = Job[]

/**
 * A settled devnet job encodes to 832 bytes (14 head words, a ~210-byte attestation text, a
 * 65-byte signature) plus the reader's 32-byte entry head: 24 of them return ~20 KB of the 24,576
 * an `eth_call` may return, leaving room for longer texts, and cost ~5M gas (mostly the 200 gas
 * per returned byte charged as code deposit), well under the 25-50M gas caps of public nodes. A
 * call that still returns too much is refused by the node and split by readByIds.
 */
const jobsPerCall = 24

/**
 * Jobs mapped in one turn of the event loop: a job costs 30–55 µs (its attestation text is
 * parsed), and the 7,000 jobs of one back-fill window, mapped at once, held requests 250 ms; 500
 * a turn still made 15–25 ms, to which a wave decoded in the same loop iteration (readByIds) and
 * a garbage collection could add.
 */
const jobsPerTurn = 100

/** Reads `getJob` for every id, in the order given, many ids per `eth_call` (see readByIds). */
export async function readJobs(client: Client, { escrow, ids, blockNumber }: ReadJobsParameters): Promise<ReadJobsReturnType> {
  const structs = await readByIds(client, { address: escrow, abi: escrowAbi, functionName: 'getJob', ids, idsPerCall: jobsPerCall, blockNumber })
  const jobs: Job[] = []
  for (const [index, struct] of structs.entries()) {
    if (index > 0 && index % jobsPerTurn === 0) await setImmediate()
    jobs.push(toJob(ids[index] as bigint, struct))
  }
  return jobs
}
