import { createHash } from 'node:crypto'
import { type Hex, bytesToHex, hexToBytes } from 'viem'
import { TeeComposeHashError, TeeEventLogMismatchError } from '../errors/tee.ts'
import type { TdxMeasurements } from './parseTdxQuote.ts'
import { type TdxEvent, replayEventLog } from './replayEventLog.ts'

export type ReadComposeHashParameters = {
  /** From the verified quote. */
  measurements: Pick<TdxMeasurements, 'mrConfigId' | 'rtmr0' | 'rtmr1' | 'rtmr2' | 'rtmr3'>
  eventLog?: readonly TdxEvent[] | undefined
  /** The app compose file (dstack's `app_compose`, a JSON string) as the provider serves it. */
  appCompose?: string | undefined
}

export type ReadComposeHashReturnType = {
  composeHash: Hex
  /** Where the measured hash was read: `mr_config_id` version 1, or RTMR3's replayed event log. */
  source: 'mr_config_id' | 'event_log'
  /** Whether `sha256(appCompose)` was compared (and so equals `composeHash`). */
  appComposeMatches: boolean
}

export type ReadComposeHashErrorType = TeeComposeHashError | TeeEventLogMismatchError

const rtmrNames = ['rtmr0', 'rtmr1', 'rtmr2', 'rtmr3'] as const

function fromEventLog(eventLog: readonly TdxEvent[], measurements: ReadComposeHashParameters['measurements']): Hex | undefined {
  const { rtmrs } = replayEventLog(eventLog)
  // RTMR3 always; RTMR0–2 when the log carries their (boot) events, as dstack's full log does.
  rtmrNames.forEach((name, i) => {
    const covered = i === 3 || eventLog.some((e) => e.imr === i)
    if (covered && rtmrs[i] !== measurements[name]) {
      throw new TeeEventLogMismatchError({ reason: `replayed, it gives ${name.toUpperCase()} ${rtmrs[i]} but the quote reports ${measurements[name]}` })
    }
  })
  const events = eventLog.filter((e) => e.imr === 3 && e.event === 'compose-hash')
  if (events.length > 1) throw new TeeComposeHashError({ reason: `RTMR3's event log has ${events.length} compose-hash events; dstack writes one` })
  return events[0]?.payload.toLowerCase() as Hex | undefined
}

/**
 * The compose hash the TD measured, from `mr_config_id` (dstack's version 1: `0x01 ‖ compose_hash`,
 * `dstack-util/src/system_setup/config_id_verifier.rs`) or from RTMR3's `compose-hash` event once
 * the log replays to the quote's RTMRs; when both exist they must agree. With `appCompose`, its
 * sha256 must be that hash: the file then says what the TD runs.
 */
export function readComposeHash({ measurements, eventLog, appCompose }: ReadComposeHashParameters): ReadComposeHashReturnType {
  const config = hexToBytes(measurements.mrConfigId)
  const fromConfig = config[0] === 0x01 ? bytesToHex(config.subarray(1, 33)) : undefined
  const fromLog = eventLog === undefined ? undefined : fromEventLog(eventLog, measurements)
  if (fromConfig !== undefined && fromLog !== undefined && fromConfig !== fromLog) {
    throw new TeeComposeHashError({ reason: `mr_config_id names ${fromConfig} but the event log's compose-hash event ${fromLog}` })
  }
  const composeHash = fromConfig ?? fromLog
  if (composeHash === undefined) {
    throw new TeeComposeHashError({
      reason: eventLog === undefined
        ? `mr_config_id ${measurements.mrConfigId} is not version 1 and no event log was given`
        : `mr_config_id ${measurements.mrConfigId} is not version 1 and RTMR3's event log has no compose-hash event`,
    })
  }
  if (appCompose === undefined) return { composeHash, source: fromConfig !== undefined ? 'mr_config_id' : 'event_log', appComposeMatches: false }
  const hashed = `0x${createHash('sha256').update(appCompose, 'utf8').digest('hex')}`
  if (hashed !== composeHash) {
    throw new TeeComposeHashError({ reason: `sha256(app_compose) is ${hashed} but the TD measured ${composeHash}` })
  }
  return { composeHash, source: fromConfig !== undefined ? 'mr_config_id' : 'event_log', appComposeMatches: true }
}
