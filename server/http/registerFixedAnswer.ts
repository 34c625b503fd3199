import type { FastifyInstance } from 'fastify'
import type { AnswerHooks } from './addAnswerHooks.ts'
import { refuseQuery } from './refuseQuery.ts'

export type RegisterFixedAnswerParameters = {
  answers: AnswerHooks
  url: string
  contentType: string
  body: string
  /** Extra headers sent with every answer (a page's content security policy, say). */
  headers?: Record<string, string> | undefined
  /** Refuse any query parameter (a JSON document); pages and assets take what browsers add. */
  strictQuery?: boolean | undefined
}

/** What never changes while the app runs has one version for its whole life. */
const fixedVersion = 0

/**
 * `GET url` answering a body fixed when the app is built (the API reference, Swagger UI's files,
 * the explorer's shell and bundle), with the API's ETag, 304 and compression.
 */
export function registerFixedAnswer(app: FastifyInstance, { answers, url, contentType, body, headers = {}, strictQuery = false }: RegisterFixedAnswerParameters): void {
  const answer = answers.onRequest({ contentType, version: () => fixedVersion })
  app.get(url, { onRequest: strictQuery ? [refuseQuery, answer] : answer }, (_request, reply) => {
    reply.headers(headers).type(contentType).send(body)
  })
}
