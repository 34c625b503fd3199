/**
 * The devnet's PCCS: Intel's PCS v4 API (as Intel's PCCS caches it) for the devnet's own TEE
 * root, so a verifier fetches the devnet's collateral the way it fetches Intel's.
 *
 *   GET /sgx/certification/v4/pckcrl?ca=platform&encoding=der|pem
 *       the PCK CA's CRL; header SGX-PCK-CRL-Issuer-Chain (URL-encoded PEM: PCK CA, root).
 *       The devnet's one PCK CA is a Platform CA: `ca=processor` is 404.
 *   GET /tdx/certification/v4/tcb?fmspc=<12 hex>
 *       `{"tcbInfo": …, "signature": "<hex>"}`; header TCB-Info-Issuer-Chain. Another FMSPC: 404.
 *   GET /tdx/certification/v4/qe/identity[?update=standard|early]
 *       `{"enclaveIdentity": …, "signature": "<hex>"}`; header SGX-Enclave-Identity-Issuer-Chain.
 *   GET /sgx/certification/v4/rootcacrl
 *       the root CA's CRL as hex text, as PCCS serves it (Intel's PCS serves DER).
 *
 * The signed JSON is sent as signed, byte for byte: a client verifies the signature over the text
 * of `tcbInfo` / `enclaveIdentity` re-serialised, which is the signed text only if nothing was
 * reformatted. Errors: `{ "error": { "code", "message" } }`, 400 for a malformed query, 404 for
 * what the devnet has not. Bound to 127.0.0.1 by default: nothing here is secret, but the devnet
 * serves nobody else.
 */
import type { AddressInfo } from 'node:net'
import type { Collateral } from '@phala/dcap-qvl'
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify'
import { answerClientError } from '../../platform/http/answerClientError.ts'
import { handleFrameworkError } from '../../platform/http/handleFrameworkError.ts'
import { hardenServer } from '../../platform/http/hardenServer.ts'
import { localUrlOf } from '../../platform/serving/localUrlOf.ts'
import type { TeeRoot } from './createTeeRoot.ts'

export type ServePccsParameters = {
  host?: string
  /** 0 picks a free port. */
  port: number
}

export type ServePccsReturnType = {
  /** Base URL, e.g. `http://127.0.0.1:8083`: what a client passes as its PCCS URL. */
  url: string
  close: () => Promise<void>
}

type Query = Record<string, string | undefined>

function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).send({ error: { code, message } })
}

/** Collateral as dcap-qvl types it (hex text or bytes) → bytes. */
function bytesOf(value: string | number[] | Uint8Array): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'hex') : Buffer.from(value)
}

function crlPem(der: Buffer): string {
  return `-----BEGIN X509 CRL-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').trimEnd()}\n-----END X509 CRL-----\n`
}

/** `{"<name>":<signed JSON as signed>,"signature":"<hex>"}`. */
function signedBody(name: string, json: string, signature: string | number[] | Uint8Array): string {
  return `{"${name}":${json},"signature":"${bytesOf(signature).toString('hex')}"}`
}

function buildPccsApp({ collateral, platform }: Pick<TeeRoot, 'collateral' | 'platform'>): FastifyInstance {
  const app = Fastify({ logger: false, frameworkErrors: handleFrameworkError, clientErrorHandler: answerClientError })
  hardenServer(app, { methods: ['GET', 'HEAD'] })
  const fmspc = Buffer.from(platform.fmspc).toString('hex').toUpperCase()
  const chain = (pem: string) => encodeURIComponent(pem)
  const c: Collateral = collateral

  app.get<{ Querystring: Query }>('/sgx/certification/v4/pckcrl', async (request, reply) => {
    const { ca, encoding = 'pem' } = request.query
    if (ca !== 'platform' && ca !== 'processor') {
      return sendError(reply, 400, 'invalid_ca', `Query parameter ca must be "platform" or "processor", got "${String(ca).slice(0, 40)}".`)
    }
    if (encoding !== 'der' && encoding !== 'pem') {
      return sendError(reply, 400, 'invalid_encoding', `Query parameter encoding must be "der" or "pem", got "${encoding.slice(0, 40)}".`)
    }
    if (ca === 'processor') {
      return sendError(reply, 404, 'unknown_ca', 'The devnet has no PCK Processor CA: its PCK certificates are issued by its PCK Platform CA (ca=platform).')
    }
    const der = bytesOf(c.pck_crl)
    reply.header('SGX-PCK-CRL-Issuer-Chain', chain(c.pck_crl_issuer_chain))
    return encoding === 'der' ? reply.type('application/pkix-crl').send(der) : reply.type('application/x-pem-file').send(crlPem(der))
  })

  app.get<{ Querystring: Query }>('/tdx/certification/v4/tcb', async (request, reply) => {
    const asked = request.query.fmspc ?? ''
    if (!/^[0-9a-fA-F]{12}$/.test(asked)) {
      return sendError(reply, 400, 'invalid_fmspc', `Query parameter fmspc must be 6 bytes of hex (12 digits), got "${asked.slice(0, 40)}".`)
    }
    if (asked.toUpperCase() !== fmspc) {
      return sendError(reply, 404, 'unknown_fmspc', `The devnet has no TCB info for FMSPC ${asked.toUpperCase()}; its one platform's FMSPC is ${fmspc}.`)
    }
    reply.header('TCB-Info-Issuer-Chain', chain(c.tcb_info_issuer_chain))
    return reply.type('application/json').send(signedBody('tcbInfo', c.tcb_info, c.tcb_info_signature))
  })

  app.get('/tdx/certification/v4/qe/identity', async (_request, reply) => {
    reply.header('SGX-Enclave-Identity-Issuer-Chain', chain(c.qe_identity_issuer_chain))
    return reply.type('application/json').send(signedBody('enclaveIdentity', c.qe_identity, c.qe_identity_signature))
  })

  app.get('/sgx/certification/v4/rootcacrl', async (_request, reply) => reply.type('text/plain').send(bytesOf(c.root_ca_crl).toString('hex')))

  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      404,
      'not_found',
      `Path "${request.url.slice(0, 200).split('?')[0]}" is not served: the devnet's PCCS answers /sgx/certification/v4/pckcrl, /sgx/certification/v4/rootcacrl, /tdx/certification/v4/tcb and /tdx/certification/v4/qe/identity.`,
    ),
  )
  return app
}

/** Serves the collateral of the devnet's TEE root over Intel's PCS v4 API (above). */
export async function servePccs(root: Pick<TeeRoot, 'collateral' | 'platform'>, { host = '127.0.0.1', port }: ServePccsParameters): Promise<ServePccsReturnType> {
  const app = buildPccsApp(root)
  await app.listen({ host, port })
  return { url: localUrlOf('http', app.server.address() as AddressInfo), close: () => app.close() }
}
