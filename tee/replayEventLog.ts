import { createHash } from 'node:crypto'
import { type Hex, bytesToHex, hexToBytes } from 'viem'
import type { z } from 'zod'
import type { TeeEventSchema } from '../contract/tee.ts'
import { TeeEventLogMismatchError } from '../errors/tee.ts'

/** One event of a dstack TDX event log (dstack `cc-eventlog/src/tdx.rs`, `TdxEvent`), normalised. */
export type TdxEvent = z.output<typeof TeeEventSchema>

/** dstack's runtime events (app-id, compose-hash, instance-id, …) extend RTMR3 with this type. */
export const dstackRuntimeEventType = 0x08000001

export type ReplayEventLogReturnType = { rtmrs: [Hex, Hex, Hex, Hex] }

export type ReplayEventLogErrorType = TeeEventLogMismatchError

const sha384 = (...parts: Uint8Array[]) => {
  const hash = createHash('sha384')
  for (const part of parts) hash.update(part)
  return new Uint8Array(hash.digest())
}

/**
 * A runtime event's digest from its content, never from the log's `digest` field:
 * V1 `sha384(type_le32 ‖ ":" ‖ name ‖ ":" ‖ payload)`, V2 `sha384(JCS {name, payload, type})`
 * (dstack `cc-eventlog/src/runtime_events.rs`, `preimage`).
 */
function runtimeDigest({ event, payload, version }: TdxEvent): Uint8Array {
  const encoder = new TextEncoder()
  if (version === 2) {
    // Keys in code-point order and plain JSON strings are RFC 8785's canonical form here.
    return sha384(encoder.encode(JSON.stringify({ name: event, payload: payload.slice(2), type: dstackRuntimeEventType })))
  }
  const type = new Uint8Array(4)
  new DataView(type.buffer).setUint32(0, dstackRuntimeEventType, true)
  return sha384(type, encoder.encode(`:${event}:`), hexToBytes(payload))
}

/** Replays every event into its RTMR (from 48 zero bytes, `rtmr = sha384(rtmr ‖ digest)`). */
export function replayEventLog(events: readonly TdxEvent[]): ReplayEventLogReturnType {
  const rtmrs = [0, 1, 2, 3].map(() => new Uint8Array(48))
  events.forEach((entry, index) => {
    if (!Number.isInteger(entry.imr) || entry.imr < 0 || entry.imr > 3) {
      throw new TeeEventLogMismatchError({ reason: `event ${index} ("${entry.event}") names IMR ${entry.imr}; IMRs are 0 to 3` })
    }
    let digest: Uint8Array
    if (entry.eventType === dstackRuntimeEventType) {
      digest = runtimeDigest(entry)
      if (entry.digest !== '' && entry.digest.toLowerCase() !== bytesToHex(digest)) {
        throw new TeeEventLogMismatchError({ reason: `event ${index} ("${entry.event}") has digest ${entry.digest}, but its content hashes to ${bytesToHex(digest)}` })
      }
    } else {
      digest = entry.digest === '' ? new Uint8Array() : hexToBytes(entry.digest)
      if (digest.length !== 48) throw new TeeEventLogMismatchError({ reason: `event ${index} ("${entry.event}") has no 48-byte digest` })
    }
    rtmrs[entry.imr] = sha384(rtmrs[entry.imr]!, digest)
  })
  return { rtmrs: rtmrs.map((r) => bytesToHex(r)) as [Hex, Hex, Hex, Hex] }
}
