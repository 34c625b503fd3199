/**
 * The reference seller's output endpoint: how a buyer fetches the output of its settled job.
 *
 *   GET {sellerUrl}/outputs/{jobId}
 *   X-Buyer-Signature: 0x<65-byte r‖s‖v hex>
 *   X-Buyer-Signature-Expires: <unix seconds>
 *
 * - `jobId` is the job id in canonical decimal (`^(0|[1-9][0-9]*)$`, at most 78 digits: the contract's UintStringSchema).
 * - `X-Buyer-Signature` is an EIP-191 personal-message signature (`personal_sign`, viem
 *   `account.signMessage({ message })`) by the job's buyer over the message of
 *   `outputRequestMessage` (contract/outputRequestMessage.ts): the job id, the job's seller, the
 *   chain id, the escrow and the expiry, one per line. `signOutputRequest` in the same folder
 *   produces both headers. Bound to seller, chain and escrow, a signature is worthless anywhere
 *   else, and it is refused once expired or when it claims to live more than 5 minutes.
 *
 * Answers, checked in this order (JSON, errors as `{ "error": { "code": "<snake_case>", "message": "<sentence>" } }`):
 * - 400 `invalid_job_id`: jobId is not a canonical decimal.
 * - 401 `buyer_signature_required`: a header is absent or malformed, or the signature has expired
 *   or lives too long. Decided before any job is looked up.
 * - 404 `output_not_found`: no settled output of the job is served to this signer: the same answer
 *   for a job this seller does not hold, one not settled on chain yet, and a signature that is not
 *   the job's buyer's for this seller, so strangers learn nothing of which jobs it holds. A job
 *   answered by this seller is served as soon as the chain holds its outputRootHash; the buyer may
 *   retry a 404 briefly after settlement (the chain node can lag).
 * - 200 `{ "jobId": "<decimal>", "output": "<text>", "outputRootHash": "0x<64 hex>" }` where
 *   `outputRootHash` = keccak256(UTF-8 bytes of `output`) = the job's on-chain `outputRootHash`;
 *   the caller should check both.
 * With an attester (the devnet's reference seller): `GET /v1/attestation/report` and `GET /v1/quote`
 * (see serveAttestation). Any other path: 404 `not_found`.
 *
 * Bound to 127.0.0.1 by default (port 8082 in `main.ts`).
 */
import type { AddressInfo } from 'node:net'
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify'
import { type Address, type Hex, isAddressEqual, isHex, recoverMessageAddress } from 'viem'
import { UintStringSchema } from '../../contract/primitives.ts'
import { outputRequestHeaders, outputRequestMessage, outputRequestValiditySec } from '../../contract/outputRequestMessage.ts'
import { corsHeaders } from '../../platform/http/addCorsHeaders.ts'
import { answerClientError } from '../../platform/http/answerClientError.ts'
import { handleFrameworkError } from '../../platform/http/handleFrameworkError.ts'
import { hardenServer, type ServerLimits } from '../../platform/http/hardenServer.ts'
import { listenServing } from '../../platform/serving/listenServing.ts'
import { localUrlOf } from '../../platform/serving/localUrlOf.ts'
import { readServingOptions, type ServingSettings } from '../../platform/serving/readServingOptions.ts'
import { toFastifyServing, type ServingOptions } from '../../platform/serving/toFastifyServing.ts'
import type { Attester } from '../tee/createAttester.ts'
import type { SellerOutput, SellerStore } from './createSellerStore.ts'
import { serveAttestation } from './serveAttestation.ts'

export type ServeOutputsParameters = {
  host?: string
  /** 0 picks a free port. */
  port: number
  /**
   * Asked for a recorded output not yet known to be settled: resolves to it once the chain
   * holds it (see `settleRecordedOutput`). Without it, only outputs marked settled are served.
   */
  settle?: (jobId: bigint) => Promise<SellerOutput | undefined>
  /** What a buyer's signature must name: the seller wallets this process answers for, its chain and escrow. */
  sellers: readonly Address[]
  chainId: number
  escrow: Address
  /** Timeouts and connection cap (see hardenServer); the defaults unless given. */
  limits?: Partial<ServerLimits> | undefined
  /** The certificate and trusted proxies (see readServingOptions); plain HTTP unless given. */
  serving?: ServingSettings | undefined
  /** Where a certificate reload is reported. */
  log?: ((line: string) => void) | undefined
  /** On the devnet: serve attestation reports made with its TEE root (see serveAttestation). */
  attester?: Attester | undefined
}

export type ServeOutputsReturnType = {
  /** Base URL where a client on this machine reaches it, e.g. `http://127.0.0.1:8082` (see localUrlOf); outputs are at `{url}/outputs/{jobId}`. */
  url: string
  close: () => Promise<void>
}

const plainHttp: ServingSettings = { tlsCert: null, tlsKey: null, trustProxy: [] }

/** The latest expiry a signature may name, in unix seconds: 12 digits; a longer one is malformed, not merely too long-lived. */
const maxExpires = 999_999_999_999

function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).send({ error: { code, message } })
}

type OutputRequestCheck = Pick<ServeOutputsParameters, 'sellers' | 'chainId' | 'escrow'>

/** Whether the signature is `buyer`'s over this job's request for one of this process's sellers. */
async function signedByBuyer(
  { sellers, chainId, escrow }: OutputRequestCheck,
  { jobId, expires, signature, buyer }: { jobId: bigint; expires: number; signature: Hex; buyer: Address },
): Promise<boolean> {
  for (const seller of sellers) {
    try {
      const message = outputRequestMessage({ jobId, seller, chainId, escrow, expires })
      if (isAddressEqual(await recoverMessageAddress({ message, signature }), buyer)) return true
    } catch {
      return false
    }
  }
  return false
}

/** Why the signature headers cannot be used, whatever the job; undefined when they can. */
function signatureProblem(signature: string | undefined, expiresText: string | undefined): string | undefined {
  if (signature === undefined || !isHex(signature) || signature.length !== 132) return 'is missing or is not 65 bytes of 0x hex'
  const expires = expiresText !== undefined && UintStringSchema.safeParse(expiresText).success ? Number(expiresText) : 0
  if (expires < 1 || expires > maxExpires) return `has no ${outputRequestHeaders.expires} header of unix seconds`
  const now = Math.floor(Date.now() / 1_000)
  if (expires < now) return 'has expired: sign a new one'
  if (expires > now + outputRequestValiditySec.accepted) return `must expire within ${outputRequestValiditySec.accepted} s`
  return undefined
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
  check: OutputRequestCheck,
  limits: Partial<ServerLimits> | undefined,
  serving: ServingOptions | undefined,
  attester: Attester | undefined,
): FastifyInstance {
  const app = Fastify({ ...toFastifyServing(serving), logger: false, frameworkErrors: handleFrameworkError, clientErrorHandler: answerClientError })
  hardenServer(app, { methods: ['GET', 'HEAD'], limits, trustProxy: serving?.trustProxy })
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(corsHeaders)
    done(null, payload)
  })

  app.get<{ Params: { jobId: string } }>('/outputs/:jobId', async (request, reply) => {
    const { jobId: jobIdText } = request.params
    if (!UintStringSchema.safeParse(jobIdText).success) {
      return sendError(
        reply,
        400,
        'invalid_job_id',
        `Job id "${jobIdText.slice(0, 100)}" is not a canonical decimal integer.`,
      )
    }
    const jobId = BigInt(jobIdText)

    const header = (name: string): string | undefined => {
      const value = request.headers[name]
      return typeof value === 'string' ? value.trim() : undefined
    }
    const signature = header(outputRequestHeaders.signature)
    const expires = header(outputRequestHeaders.expires)
    const problem = signatureProblem(signature, expires)
    if (problem !== undefined) {
      return sendError(
        reply,
        401,
        'buyer_signature_required',
        `Fetching the output of job "${jobId}" needs the buyer's X-Buyer-Signature over the output request (job, seller, chain, escrow, expiry) with X-Buyer-Signature-Expires; this one ${problem}.`,
      )
    }

    const recorded = store.getOutput(jobId)
    const record = recorded === undefined || recorded.settled ? recorded : await settleOrUndefined(settle, jobId)
    const served =
      record !== undefined &&
      record.settled &&
      (await signedByBuyer(check, { jobId, expires: Number(expires), signature: signature as Hex, buyer: record.buyer }))
    if (!served) {
      return sendError(
        reply,
        404,
        'output_not_found',
        `No settled output of job "${jobId}" is served to this signer: it is not held here, not settled yet, or the signature is not its buyer's for this seller.`,
      )
    }
    return reply.send({
      jobId: record.jobId.toString(),
      output: record.output,
      outputRootHash: record.outputRootHash,
    })
  })

  if (attester !== undefined) serveAttestation(app, attester)

  const served = attester === undefined ? 'outputs are at /outputs/<jobId>' : 'outputs are at /outputs/<jobId>, attestation at /v1/attestation/report and /v1/quote'
  app.setNotFoundHandler((request, reply) => sendError(reply, 404, 'not_found', `Path "${request.url.slice(0, 200)}" does not exist; ${served}.`))
  return app
}

/** Serves the store's settled outputs to their buyers over HTTP (protocol above). */
export async function serveOutputs(
  store: SellerStore,
  { host = '127.0.0.1', port, settle = async () => undefined, sellers, chainId, escrow, limits, serving = plainHttp, log = () => undefined, attester }: ServeOutputsParameters,
): Promise<ServeOutputsReturnType> {
  const options = await readServingOptions(serving)
  const app = buildOutputApp(store, settle, { sellers, chainId, escrow }, limits, options, attester)
  const logger = { info: (fields: object, message: string) => log(`${message} ${JSON.stringify(fields)}`), warn: (fields: object, message: string) => log(`${message} ${JSON.stringify(fields)}`) }
  const { unwatch } = await listenServing(app, { host, port, settings: serving, logger })
  const address = app.server.address() as AddressInfo
  return {
    url: localUrlOf(options.https === null ? 'http' : 'https', address),
    close: async () => {
      unwatch()
      await app.close()
    },
  }
}
