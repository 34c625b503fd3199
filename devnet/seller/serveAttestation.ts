/**
 * The reference seller's attestation endpoints on the devnet, made with the devnet's TEE root
 * (see createAttester); the quotes bind the seller's first service's signing key.
 *
 *   GET {sellerUrl}/v1/attestation/report?nonce=<64 hex>&signing_algo=ecdsa
 *     NEAR private-ml-sdk's report (as dstack-served models answer it): `signing_address`,
 *     `signing_algo`, `request_nonce`, `intel_quote` (hex), `event_log` (a list), `info.tcb_info`
 *     (JSON text with `app_compose`). `report_data` = address (20 bytes) ‖ 12 zero bytes ‖ nonce.
 *     `nonce` is optional (a random one is used, as NEAR does); 0x-prefixed or not.
 *   GET {sellerUrl}/v1/quote
 *     0G provider broker's quote: `quote` (hex), `provider_signer`, `tcb_info`, `event_log` (JSON
 *     text). `report_data` = the address as ASCII text, zero-padded: no nonce, so replayable.
 *
 * Errors: 400 `invalid_nonce`, 400 `unsupported_signing_algo`, in the seller's error shape.
 */
import type { FastifyInstance } from 'fastify'
import type { Hex } from 'viem'
import type { Attester } from '../tee/createAttester.ts'

type ReportQuery = { nonce?: string; signing_algo?: string }

export function serveAttestation(app: FastifyInstance, attester: Attester): void {
  app.get<{ Querystring: ReportQuery }>('/v1/attestation/report', async (request, reply) => {
    const { nonce, signing_algo: algorithm = 'ecdsa' } = request.query
    if (nonce !== undefined && !/^(0x)?[0-9a-fA-F]{64}$/.test(nonce)) {
      return reply.code(400).send({
        error: { code: 'invalid_nonce', message: `Query parameter nonce must be 32 bytes of hex (64 digits, 0x optional), got "${String(nonce).slice(0, 80)}".` },
      })
    }
    if (algorithm !== 'ecdsa') {
      return reply.code(400).send({
        error: { code: 'unsupported_signing_algo', message: `This seller signs with ecdsa only (signing_algo=ecdsa), got "${String(algorithm).slice(0, 40)}".` },
      })
    }
    const sent = nonce === undefined ? undefined : (`0x${nonce.replace(/^0x/, '').toLowerCase()}` as Hex)
    return reply.send(attester.nearReport(sent))
  })

  app.get('/v1/quote', async (_request, reply) => reply.send(attester.brokerQuote()))
}
