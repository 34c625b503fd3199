export type BaseErrorParameters = {
  /** Machine-readable snake_case code, surfaced in REST error bodies. */
  code: string
  details?: string | undefined
  cause?: unknown
}

/**
 * Root of every error we raise on purpose. The `message` is a short sentence that quotes the
 * offending value; `code` is what REST bodies and MCP callers can branch on.
 */
export class BaseError extends Error {
  override name = 'BaseError'
  readonly code: string
  readonly details: string | undefined

  constructor(shortMessage: string, { code, details, cause }: BaseErrorParameters) {
    super(shortMessage, cause === undefined ? undefined : { cause })
    this.code = code
    this.details = details
  }
}
