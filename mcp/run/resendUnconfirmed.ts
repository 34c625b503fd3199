import { type Address, type Client, type Hash, keccak256 } from 'viem'
import { CreateJobRejectedError, CreateJobRevertedError } from '../../errors/run.ts'
import { findUnconfirmedSends, type UnconfirmedSend } from '../spend/findUnconfirmedSends.ts'
import { markSpendSent } from '../spend/markSpendSent.ts'
import { releaseSpend } from '../spend/releaseSpend.ts'
import { sendCreateJob, type SendCreateJobReturnType } from './sendCreateJob.ts'
import { sendInOrder } from './sendInOrder.ts'

export type ResendUnconfirmedParameters = {
  escrow: Address
  ledgerPath: string
  buyer: Address
  serviceId: bigint
  inputCommitment: Hash
  log: (message: string) => void
}

/**
 * Settles what earlier `run`s for this service and prompt left open: each createJob whose outcome
 * they never read (its receipt timed out, or the process died waiting) is sent again byte for
 * byte and read. One hash is mined once at most, so a retry never pays twice for it. Returns the
 * newest job so created, which nobody has followed yet; null when none was.
 * - Mined: it stays counted.
 * - Reverted: no escrow left the wallet, so it leaves the ledger.
 * - Refused by the node, which does not hold it (its nonce went to another transaction): it stays
 *   counted, as a payment that may have been made, but is not sent again.
 * - Still unconfirmed: CreateJobUnconfirmedError, before anything new is paid.
 */
export async function resendUnconfirmed(
  client: Client,
  { escrow, ledgerPath, buyer, serviceId, inputCommitment, log }: ResendUnconfirmedParameters,
): Promise<SendCreateJobReturnType | null> {
  const query = { buyer, serviceId, inputCommitment }
  if ((await findUnconfirmedSends(ledgerPath, query)).length === 0) return null
  // In this account's turn, so no send of this process signs the nonce these bytes hold meanwhile.
  return sendInOrder(client, { address: buyer }, async () => {
    let created: SendCreateJobReturnType | null = null
    for (const unconfirmed of await findUnconfirmedSends(ledgerPath, query)) {
      created = (await resendOne(client, { escrow, buyer, ledgerPath, log }, unconfirmed)) ?? created
    }
    return created
  })
}

async function resendOne(
  client: Client,
  { escrow, buyer, ledgerPath, log }: Pick<ResendUnconfirmedParameters, 'escrow' | 'buyer' | 'ledgerPath' | 'log'>,
  { id, sending }: UnconfirmedSend,
): Promise<SendCreateJobReturnType | undefined> {
  const hash = keccak256(sending.transaction)
  log(`run: the createJob "${hash}" of an earlier run for this service and prompt was never confirmed: sending the same signed transaction again, not a new payment`)
  let created: SendCreateJobReturnType
  try {
    created = await sendCreateJob(client, { escrow, buyer, serializedTransaction: sending.transaction })
  } catch (error) {
    if (error instanceof CreateJobRevertedError) await releaseSpend({ path: ledgerPath, id })
    else if (error instanceof CreateJobRejectedError) {
      log(`run: the node refused the earlier createJob "${hash}" (${error.reason}): it is not sent again, and the spend ledger keeps counting it as a payment that may have been made`)
      await markSpendSent({ path: ledgerPath, id })
    } else throw error
    return undefined
  }
  await markSpendSent({ path: ledgerPath, id })
  return created
}
