import type { Hash } from 'viem'
import { readSpendLedger, type SpendEntry } from './spendLedgerFile.ts'

export type FindUnconfirmedSendsParameters = {
  buyer: string
  serviceId: bigint
  inputCommitment: Hash
}

export type UnconfirmedSend = SpendEntry & { sending: NonNullable<SpendEntry['sending']> }

/** The buyer's createJobs for this service and prompt whose outcome no `run` has read yet, oldest first. */
export async function findUnconfirmedSends(path: string, { buyer, serviceId, inputCommitment }: FindUnconfirmedSendsParameters): Promise<UnconfirmedSend[]> {
  const { entries } = await readSpendLedger(path)
  return entries
    .filter((entry): entry is UnconfirmedSend => entry.sending?.inputCommitment === inputCommitment)
    .filter((entry) => entry.buyer === buyer && entry.serviceId === serviceId.toString())
    .toSorted((a, b) => a.at - b.at)
}
