import type { AppRoute, ServerInferRequest, ServerInferResponses } from '@ts-rest/core'

/**
 * How one contract route is answered. `version` comes first and must be cheap: when the client
 * already holds that version (If-None-Match) or a body built from it is kept, `answer` is never
 * called. Both receive the request as the route's zod schemas parsed it.
 */
export type ContractHandler<R extends AppRoute> = {
  /**
   * The store version the answer will reflect, or undefined when it has none: a body that changes
   * with time, or an answer that will be an error (an unknown id).
   */
  version: (request: ServerInferRequest<R>) => number | undefined
  /** `{ status, body }` as the contract declares them; errors are thrown (see toErrorReply). */
  answer: (request: ServerInferRequest<R>) => ServerInferResponses<R>
}
