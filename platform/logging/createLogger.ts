import { createRequire } from 'node:module'
import { hostname } from 'node:os'
import { pino, type DestinationStream, type Logger } from 'pino'
import type { LogLevel } from '../../config/ConfigSchema.ts'

export type { Logger }

export type CreateLoggerParameters = {
  level: LogLevel
  /** Where lines go; stderr unless given (stdout may carry protocol messages or a report). */
  stream?: (DestinationStream & { isTTY?: boolean }) | undefined
  /** Readable coloured lines instead of JSON; defaults to whether `stream` is a terminal. */
  pretty?: boolean | undefined
  /** Fields on every line, e.g. `{ service: 'rest' }`. */
  base?: Record<string, unknown> | undefined
}

const require = createRequire(import.meta.url)

/**
 * The one logger of every entry point (Fastify's pino, handed to Fastify as its logger): JSON lines
 * for collectors by default, readable lines when a person watches a terminal. pino-pretty is
 * loaded only then, so a production process never pays for it.
 */
export function createLogger({ level, stream = process.stderr, pretty = stream.isTTY === true, base }: CreateLoggerParameters): Logger {
  const options = { level, base: { pid: process.pid, hostname: hostname(), ...base } }
  const pinoPretty = pretty ? loadPinoPretty() : undefined
  if (pinoPretty === undefined) return pino(options, stream)
  return pino(options, pinoPretty({ destination: stream, sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }))
}

/** pino-pretty where it is installed (a checkout); the published bin bundles no dependency and logs JSON. */
function loadPinoPretty(): typeof import('pino-pretty') | undefined {
  try {
    return require('pino-pretty') as typeof import('pino-pretty')
  } catch {
    return undefined
  }
}
