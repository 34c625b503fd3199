import { BaseError } from './BaseError.ts'

export type TlsFileErrorParameters = {
  /** The flag or variable that named the file, e.g. `--tls-cert`. */
  setting: string
  path: string
  /** What was wrong with it, as a clause: `cannot be read`, `holds no PEM certificate`. */
  problem: string
  /** What the file must hold instead. */
  expected: string
  cause?: unknown
}

/**
 * A certificate or key file that cannot serve HTTPS. Raised at start-up (the server never falls back
 * to plain HTTP) and logged on a reload (the certificate in force is kept).
 */
export class TlsFileError extends BaseError {
  override name = 'TlsFileError'
  readonly path: string

  constructor({ setting, path, problem, expected, cause }: TlsFileErrorParameters) {
    const reason = cause instanceof Error ? ` (${cause.message})` : ''
    super(`${setting} "${path}" ${problem}${reason}: it must be ${expected}.`, { code: 'invalid_tls_file', cause })
    this.path = path
  }
}
