import { randomBytes } from 'node:crypto'
import {
  type Account,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
  bytesToHex,
  encodeAbiParameters,
  hexToString,
  isAddressEqual,
  keccak256,
  stringToHex,
} from 'viem'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { buildAttestationText } from '../../chain/attestation/buildAttestationText.ts'
import { signAttestation } from '../../chain/attestation/signAttestation.ts'
import { AttestationRevertedError, JobInputUnreadableError, SigningKeyUnavailableError } from '../../errors/seller.ts'
import type { SellerBackend, SellerBackendUsage } from './backends/SellerBackend.ts'
import type { SellerOutput, SellerStore } from './createSellerStore.ts'
import { readJobInput } from './readJobInput.ts'

const pendingState = 0
/** Past this the poll loop moves on; the next attempt finds the job settled or retries it. */
const receiptTimeoutMs = 60_000

/**
 * The devnet's providers sit behind no TLS endpoint, so the fingerprint is a fixed, recognisable
 * value (keccak256 of a label) that no real certificate's fingerprint will collide with.
 */
const devnetTlsCertFingerprint = keccak256(stringToHex('tee-market devnet reference seller: no TLS'))

export type AnswerJobParameters = {
  registry: Address
  escrow: Address
  jobId: bigint
  /** The transaction that emitted the job's `JobCreated`: its calldata holds the prompt. */
  transactionHash: Hash
  backend: SellerBackend
  /** Keys the seller holds for the job's service; it signs with the one registered now. */
  signingAccounts: readonly LocalAccount[]
  store: SellerStore
}

/** `settled` with a null transaction: the chain already held this seller's answer. */
export type AnswerJobReturnType =
  | { status: 'settled'; transactionHash: Hash | null }
  | { status: 'notPending'; state: number }
  | { status: 'expired'; expiredAt: bigint }
  | { status: 'otherSeller'; seller: Address }
  /** The prompt cannot be read (see `readJobInput`): left Pending for the buyer to reclaim. */
  | { status: 'unreadable'; reason: string }

/**
 * Answers one job end to end: reads its state (only a Pending, unexpired job of this seller is
 * answered), reads the prompt from the createJob calldata, asks the backend, signs the
 * five-field attestation with the service's current key and submits it. An answer is recorded
 * before it is submitted and reused on a retry, so a submission whose receipt was lost is
 * recognised (the chain holds its outputRootHash) rather than answered twice.
 * Throws on anything worth retrying (node errors, backend errors, no key for the current
 * signingAddress); the caller retries until the job is settled or expired.
 */
export async function answerJob(
  clients: { publicClient: PublicClient; walletClient: WalletClient<Transport, Chain, Account> },
  { registry, escrow, jobId, transactionHash, backend, signingAccounts, store }: AnswerJobParameters,
): Promise<AnswerJobReturnType> {
  const { publicClient, walletClient } = clients
  const job = await publicClient.readContract({ address: escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })
  const recorded = store.getOutput(jobId)

  if (job.state !== pendingState) {
    if (recorded !== undefined && recorded.outputRootHash === job.outputRootHash) {
      if (!recorded.settled) store.putOutput({ ...recorded, settled: true })
      return { status: 'settled', transactionHash: null }
    }
    return { status: 'notPending', state: job.state }
  }
  if (!isAddressEqual(job.seller, walletClient.account.address)) {
    return { status: 'otherSeller', seller: job.seller }
  }
  const head = await publicClient.getBlock({ blockTag: 'latest' })
  if (job.timeout <= head.timestamp) {
    return { status: 'expired', expiredAt: job.timeout }
  }

  const service = await publicClient.readContract({
    address: registry,
    abi: registryAbi,
    functionName: 'getService',
    args: [job.serviceId],
  })
  const signer = signingAccounts.find((account) => isAddressEqual(account.address, service.signingAddress))
  if (signer === undefined) throw new SigningKeyUnavailableError(job.serviceId, service.signingAddress)

  // An answer recorded for another job of this id (one a reorg took away, then made again with
  // another prompt or buyer) is not this job's: it is answered afresh.
  const sameJob = recorded !== undefined && isAddressEqual(recorded.buyer, job.buyer) && (recorded.inputCommitment ?? job.inputCommitment) === job.inputCommitment
  let answer: SellerOutput | undefined = sameJob ? recorded : undefined
  if (answer === undefined) {
    let input: Hex
    try {
      input = await readJobInput(publicClient, { escrow, jobId, transactionHash, inputCommitment: job.inputCommitment })
    } catch (error) {
      if (error instanceof JobInputUnreadableError) return { status: 'unreadable', reason: error.message }
      throw error
    }
    const { output, usage } = await backend.answer({
      jobId,
      serviceId: job.serviceId,
      modelId: service.modelId,
      prompt: hexToString(input),
    })
    answer = { jobId, buyer: job.buyer, inputCommitment: job.inputCommitment, output, usage, outputRootHash: keccak256(stringToHex(output)), settled: false }
    store.putOutput(answer)
  }

  const text = buildAttestationText({
    // The attested content is the served output itself, so contentHash equals outputRootHash.
    contentHash: answer.outputRootHash,
    usageHash: hashUsage(jobId, answer.usage),
    providerType: service.providerType,
    providerIdentity: service.providerIdentity,
    tlsCertFingerprint: devnetTlsCertFingerprint,
  })
  const signature = await signAttestation(signer, { text })
  // Random salt: a chatId may never repeat, also across seller restarts and fresh devnets.
  const chatId = keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'uint256' }, { type: 'bytes32' }],
      [jobId, job.serviceId, bytesToHex(randomBytes(32))],
    ),
  )

  const hash = await walletClient.writeContract({
    address: escrow,
    abi: escrowAbi,
    functionName: 'submitAttestation',
    args: [jobId, answer.outputRootHash, chatId, text, signature],
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs })
  if (receipt.status !== 'success') throw new AttestationRevertedError(jobId, hash)
  store.putOutput({ ...answer, settled: true })
  return { status: 'settled', transactionHash: hash }
}

/** The usage record hashed into the attestation: a fixed key order, so it can be recomputed. */
function hashUsage(jobId: bigint, usage: SellerBackendUsage): Hash {
  const record = {
    jobId: jobId.toString(),
    model: usage.model,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
  }
  return keccak256(stringToHex(JSON.stringify(record)))
}
