import { createHash, randomBytes } from 'node:crypto'
import { type Address, type Hex, bytesToHex, getAddress, hexToBytes, stringToBytes } from 'viem'
import { dstackRuntimeEventType, replayEventLog } from '../../tee/replayEventLog.ts'
import type { TeeRoot } from './createTeeRoot.ts'
import { makeTdxQuote } from './makeTdxQuote.ts'

export type CreateAttesterParameters = {
  root: TeeRoot
  /** The key the quotes bind: the service's signing address. */
  signingAddress: Address
  /** The dstack app compose file the devnet TD claims to run (JSON text). */
  appCompose?: string | undefined
}

/** One event of a dstack event log as dstack serves it (snake_case, hex without 0x). */
export type ServedEvent = { imr: number; event_type: number; digest: string; event: string; event_payload: string }

export type Attester = {
  signingAddress: Address
  /** NEAR private-ml-sdk's `GET /v1/attestation/report` answer, its quote binding `nonce` (32 bytes; a random one when absent). */
  nearReport: (nonce?: Hex | undefined) => Record<string, unknown>
  /** 0G provider broker's `GET /v1/quote` answer: the address as ASCII in `report_data`, no nonce. */
  brokerQuote: () => Record<string, unknown>
}

/** What the reference seller would run in a real TD: a fixed compose file, so its hash is stable. */
export const referenceSellerAppCompose = JSON.stringify({
  manifest_version: 2,
  name: 'tee-market-reference-seller',
  runner: 'docker-compose',
  docker_compose_file: 'services:\n  seller:\n    image: tee-market/reference-seller:devnet\n    ports: ["8082:8082"]\n',
  kms_enabled: false,
  gateway_enabled: false,
  public_logs: true,
  public_sysinfo: true,
})


/** dstack's runtime event (V1): digest = sha384(type_le32 ‖ ":" ‖ name ‖ ":" ‖ payload), extended into RTMR3. */
function runtimeEvent(event: string, payload: Uint8Array): ServedEvent {
  const type = Buffer.alloc(4)
  type.writeUInt32LE(dstackRuntimeEventType)
  const digest = createHash('sha384').update(type).update(`:${event}:`).update(payload).digest('hex')
  return { imr: 3, event_type: dstackRuntimeEventType, digest, event, event_payload: Buffer.from(payload).toString('hex') }
}

/**
 * Makes the attestation answers of a TD that holds `signingAddress`, with the devnet's root: each
 * quote carries the compose hash twice, as dstack measures it (`mr_config_id` = 0x01 ‖ hash, and
 * a `compose-hash` event in RTMR3's log, which replays to the quote's RTMR3), so a verifier's
 * compose check passes with either. Quotes are made per call; they are cheap (a few signatures).
 */
export function createAttester({ root, signingAddress, appCompose = referenceSellerAppCompose }: CreateAttesterParameters): Attester {
  const address = getAddress(signingAddress)
  const composeHash = createHash('sha256').update(appCompose, 'utf8').digest()
  const eventLog = [
    runtimeEvent('app-id', createHash('sha256').update('tee-market devnet app').digest().subarray(0, 20)),
    runtimeEvent('compose-hash', composeHash),
  ]
  const replayed = replayEventLog(
    eventLog.map((e) => ({ imr: e.imr, eventType: e.event_type, digest: `0x${e.digest}` as Hex, event: e.event, payload: `0x${e.event_payload}` as Hex, version: 1 as const })),
  )
  const mrConfigId = bytesToHex(Uint8Array.from([0x01, ...composeHash, ...new Uint8Array(15)]))
  const quoteFor = (reportData: Uint8Array) =>
    Buffer.from(makeTdxQuote(root, { reportData, mrConfigId, rtmrs: replayed.rtmrs })).toString('hex')
  const tcbInfo = JSON.stringify({ app_compose: appCompose, event_log: eventLog, compose_hash: composeHash.toString('hex') })

  return {
    signingAddress: address,
    nearReport(nonce) {
      const sent = nonce === undefined ? randomBytes(32) : hexToBytes(nonce)
      const reportData = Uint8Array.from([...hexToBytes(address), ...new Uint8Array(12), ...sent])
      return {
        signing_address: address,
        signing_algo: 'ecdsa',
        request_nonce: Buffer.from(sent).toString('hex'),
        intel_quote: quoteFor(reportData),
        event_log: eventLog,
        info: { app_name: 'tee-market-reference-seller', compose_hash: composeHash.toString('hex'), tcb_info: tcbInfo },
      }
    },
    brokerQuote() {
      const reportData = new Uint8Array(64)
      reportData.set(stringToBytes(address))
      return { quote: quoteFor(reportData), provider_signer: address, key_type: 'ecdsa', tcb_info: tcbInfo, event_log: JSON.stringify(eventLog) }
    },
  }
}
