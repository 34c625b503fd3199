import { getAddress, numberToHex, type Address, type Hex } from 'viem'
import type { DisputeEvent } from '../contract/disputeEvent.ts'
import { jobStateNames, type Job, type JobEvent, type JobEventName } from '../contract/job.ts'
import type { StoreWriter } from '../server/store/StoreWriter.ts'

const sellers = 20
const servicesPerSeller = 3
const buyers = 200
/** Shares of the outcomes out of 100, about what a busy market settles to (the seeded devnet's mix, fewer Pending). */
const outcomeShares = { Settled: 70, Expired: 12, Pending: 5, Disputed: 9, Slashed: 4 } as const
const amount = 1_000_000_000_000_000n
const firstBlockTime = 1_778_220_000

/** A seller and a buyer of the synthetic market, for the filters. */
export const syntheticSeller = address(1)
export const syntheticBuyer = address(sellers + 1)

/** Sellers are accounts 1..20, buyers the next 200: addresses made from the number, EIP-55. */
function address(index: number): Address {
  return getAddress(numberToHex(index, { size: 20 }))
}

/** A well-spread hash of a number (two rounds of a multiply-xorshift): the service, state and buyer of a job vary apart. */
function mix(value: number): number {
  let x = value | 0
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b)
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b)
  return (x ^ (x >>> 16)) >>> 0
}

/**
 * Jobs `from`..`to` of a synthetic market in the shape the indexer stores them (records,
 * histories, dispute events), spread over 60 services of 20 sellers and 200 buyers, each with the
 * history its state takes: what the benches fill a store with where a chain of that size would
 * not fit the machine (a hardhat devnet holds about 0.4 MB per job).
 */
export function fillSyntheticStore(store: Pick<StoreWriter, 'putJob' | 'addJobEvent'>, { from, to }: { from: number; to: number }): void {
  const outcomes = Object.entries(outcomeShares).flatMap(([name, share]) => Array<string>(share).fill(name))
  for (let id = from; id <= to; id += 1) {
    const service = mix(id * 3) % (sellers * servicesPerSeller)
    const stateName = outcomes[mix(id * 3 + 1) % outcomes.length] as Job['stateName']
    const state = jobStateNames.indexOf(stateName)
    const block = 10 + id * 3
    const at = (offset: number, logIndex: number, event: JobEventName): JobEvent => ({
      event,
      blockNumber: String(block + offset),
      transactionHash: transactionHashOf(id * 16 + offset),
      logIndex,
      timestamp: String(firstBlockTime + (block + offset) * 2),
    })
    const hex32 = (salt: number) => numberToHex(BigInt(id) * 1_000n + BigInt(salt), { size: 32 })
    const attested = state >= jobStateNames.indexOf('Settled') && stateName !== 'Expired'
    const job: Job = {
      jobId: String(id),
      serviceId: String(service + 1),
      buyer: address(sellers + 1 + (mix(id * 3 + 2) % buyers)),
      seller: address(1 + Math.floor(service / servicesPerSeller)),
      amount: amount.toString(),
      protocolFee: (amount / 20n).toString(),
      createdAt: String(firstBlockTime + block * 2),
      timeout: String(firstBlockTime + block * 2 + 3_600),
      state,
      stateName,
      inputCommitment: hex32(1),
      ...(attested
        ? {
            outputRootHash: hex32(2),
            chatId: hex32(3),
            attestationText: numberToHex(BigInt(id), { size: 198 }),
            attestationSignature: numberToHex(BigInt(id), { size: 65 }),
            attestation: null,
          }
        : {}),
    }
    const jobId = BigInt(id)
    store.putJob({ jobId, job })
    store.addJobEvent({ jobId, event: at(0, 0, 'JobCreated') })
    if (stateName === 'Expired') store.addJobEvent({ jobId, event: at(1, 0, 'JobExpired') })
    if (!attested) continue
    store.addJobEvent({ jobId, event: at(1, 0, 'JobAttested') })
    store.addJobEvent({ jobId, event: at(1, 1, 'JobSettled'), settledWei: amount })
    if (stateName === 'Settled') continue
    const disputer = address(sellers + 1 + (mix(id * 3 + 2) % buyers))
    const disputed = at(2, 0, 'JobDisputed')
    const opened = at(2, 1, 'DisputeOpened')
    const disputeEvents: DisputeEvent[] = [
      { ...disputed, event: 'JobDisputed', disputer },
      { ...opened, event: 'DisputeOpened', disputer, bond: '10000000000000000' },
    ]
    if (stateName === 'Slashed') {
      const split = { toDisputer: '3500000000000000000', toTreasury: '1000000000000000000', burned: '500000000000000000' }
      disputeEvents.push(
        { ...at(3, 0, 'JobSlashed'), event: 'JobSlashed', slashedSeller: job.seller, bondAmount: '5000000000000000000', ...split },
        { ...at(3, 1, 'Slashed'), event: 'Slashed', disputer, sellerBondSlashed: '5000000000000000000', ...split },
      )
    }
    for (const dispute of disputeEvents) {
      const { event, blockNumber, transactionHash, logIndex, timestamp } = dispute
      store.addJobEvent({ jobId, event: { event, blockNumber, transactionHash, logIndex, timestamp }, dispute })
    }
  }
}

/**
 * A unique hash for a transaction number that looks like a real one where it matters: its leading
 * digits spread (the store's transaction index slots hashes by them), the number itself after.
 */
function transactionHashOf(value: number): Hex {
  return `0x${mix(value).toString(16).padStart(8, '0')}${value.toString(16).padStart(56, '0')}`
}
