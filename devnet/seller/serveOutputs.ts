/**
 * The reference seller's output endpoint: how a buyer fetches the output of its settled job.
 *
 *   GET {sellerUrl}/outputs/{jobId}
 *   X-Buyer-Signature: 0x<65-byte r‖s‖v hex>
 *
 * - `jobId` is the job id in canonical decimal (`^(0|[1-9][0-9]*)$`, at most 78 digits).
 * - `X-Buyer-Signature` is an EIP-191 personal-message signature (`personal_sign`, viem
 *   `account.signMessage({ message })`) by the job's buyer over the UTF-8 message
 *   `output:<jobId>`, jobId in the same canonical decimal, e.g. `output:42`.
 *   `signOutputRequest(account, { jobId })` in `./signOutputRequest.ts` produces it.
 *   The signature is the same on every request for a job: it proves the key, not freshness.
 *
 * Answers, checked in this order (JSON, errors as `{ "error": { "code": "<snake_case>", "message": "<sentence>" } }`):
 * - 200 `{ "jobId": "<decimal>", "output": "<text>", "outputRootHash": "0x<64 hex>" }` where
 *   `outputRootHash` = keccak256(UTF-8 bytes of `output`) = the job's on-chain `outputRootHash`;
 *   the caller should check both.
 * - 400 `invalid_job_id`: jobId is not a canonical decimal.
 * - 401 `buyer_signature_required`: the header is absent or is not a recoverable signature.
 * - 404 `output_not_found`: this seller holds no settled output for the job (unknown job, another
 *   seller's, not settled on chain yet). A job answered by this seller is served as soon as the
 *   chain holds its outputRootHash; a client polling after settlement may retry a 404 briefly
 *   (the chain node can lag), it is not final.
 * - 403 `not_buyer`: the signature recovers to an address other than the job's buyer.
 * Any other path: 404 `not_found`.
 *
 * Bound to 127.0.0.1 by default (port 8082 in `main.ts`).
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify'
import { type Address, type Hex, isAddressEqual, isHex, recoverMessageAddress } from 'viem'
import type { SellerOutput, SellerStore } from './createSellerStore.ts'
import { outputRequestMessage } from './outputRequestMessage.ts'

export type ServeOutputsParameters = {
  host?: string
  /** 0 picks a free port. */
  port: number
  /**
   * Asked for a recorded output not yet known to be settled: resolves to it once the chain
   * holds it (see `settleRecordedOutput`). Without it, only outputs marked settled are served.
   */
  settle?: (jobId: bigint) => Promise<SellerOutput | undefined>
}

export type ServeOutputsReturnType = {
  /** Base URL, e.g. `http://127.0.0.1:8082`; outputs are at `{url}/outputs/{jobId}`. */
  url: string
  close: () => Promise<void>
}

const canonicalUint = /^(0|[1-9][0-9]{0,77})$/

function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).send({ error: { code, message } })
}

async function recoverBuyer(jobId: bigint, signature: Hex): Promise<Address | null> {
  try {
    return await recoverMessageAddress({ message: outputRequestMessage(jobId), signature })
  } catch {
    return null
  }
}

/** A node error while checking settlement answers as "not settled yet": the buyer retries. */
async function settleOrUndefined(
  settle: (jobId: bigint) => Promise<SellerOutput | undefined>,
  jobId: bigint,
): Promise<SellerOutput | undefined> {
  try {
    return await settle(jobId)
  } catch {
    return undefined
  }
}

function buildOutputApp(
  store: SellerStore,
  settle: (jobId: bigint) => Promise<SellerOutput | undefined>,
): FastifyInstance {
  const app = Fastify({ logger: false })

  app.get<{ Params: { jobId: string } }>('/outputs/:jobId', async (request, reply) => {
    const { jobId: jobIdText } = request.params
    if (!canonicalUint.test(jobIdText)) {
      return sendError(
        reply,
        400,
        'invalid_job_id',
        `Job id "${jobIdText}" is not a canonical decimal integer.`,
      )
    }
    const jobId = BigInt(jobIdText)

    const header = request.headers['x-buyer-signature']
    const signature = typeof header === 'string' ? header.trim() : undefined
    const buyer = signature !== undefined && isHex(signature) ? await recoverBuyer(jobId, signature) : null
    if (buyer === null) {
      return sendError(
        reply,
        401,
        'buyer_signature_required',
        `Fetching the output of job "${jobId}" needs an X-Buyer-Signature header: the buyer's EIP-191 signature over "${outputRequestMessage(jobId)}".`,
      )
    }

    const recorded = store.getOutput(jobId)
    const record = recorded === undefined || recorded.settled ? recorded : await settleOrUndefined(settle, jobId)
    if (record === undefined || !record.settled) {
      return sendError(
        reply,
        404,
        'output_not_found',
        `No settled output for job "${jobId}" is held by this seller.`,
      )
    }
    if (!isAddressEqual(buyer, record.buyer)) {
      return sendError(
        reply,
        403,
        'not_buyer',
        `The signature recovers to "${buyer}", not to the buyer of job "${jobId}".`,
      )
    }
    return reply.send({
      jobId: record.jobId.toString(),
      output: record.output,
      outputRootHash: record.outputRootHash,
    })
  })

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'not_found', `Path "${request.url}" does not exist; outputs are at /outputs/<jobId>.`),
  )
  return app
}

/** Serves the store's settled outputs to their buyers over HTTP (protocol above). */
export async function serveOutputs(
  store: SellerStore,
  { host = '127.0.0.1', port, settle = async () => undefined }: ServeOutputsParameters,
): Promise<ServeOutputsReturnType> {
  const app = buildOutputApp(store, settle)
  await app.listen({ host, port })
  const address = app.server.address()
  const boundPort = typeof address === 'object' && address !== null ? address.port : port
  return { url: `http://${host}:${boundPort}`, close: () => app.close() }
}
