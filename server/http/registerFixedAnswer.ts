import type { FastifyInstance } from 'fastify'
import type { AnswerHooks } from './addAnswerHooks.ts'

export type RegisterFixedAnswerParameters = {
  answers: AnswerHooks
  url: string
  contentType: string
  body: string
  /** Extra headers sent with every answer (a page's content security policy, say). */
  headers?: Record<string, string> | undefined
}

/** What never changes while the app runs has one version for its whole life. */
const fixedVersion = 0

/**
 * `GET url` answering a body fixed when the app is built (the API reference, Swagger UI's files,
 * the explorer's shell and bundle), with the API's ETag, 304 and compression.
 */
export function registerFixedAnswer(app: FastifyInstance, { answers, url, contentType, body, headers = {} }: RegisterFixedAnswerParameters): void {
  app.get(url, { onRequest: answers.onRequest({ contentType, version: () => fixedVersion }) }, (_request, reply) => {
    reply.headers(headers).type(contentType).send(body)
  })
}
