import { initContract } from '@ts-rest/core'
import { initServer } from '@ts-rest/fastify'
import Fastify from 'fastify'
import { expect, test } from 'vitest'
import { z } from 'zod'
import { ErrorBodySchema } from '../../contract/error.ts'
import { handleError } from '../../platform/http/handleError.ts'
import { handleRequestValidationError } from '../../server/http/handleRequestValidationError.ts'

// Our contract declares path and query parameters only; a route that declares headers or a body
// must be checked just as strictly, and refused in the same error shape, naming what was wrong.
const c = initContract()
const contract = c.router({
  rename: {
    method: 'POST',
    path: '/things/:id',
    pathParams: z.object({ id: z.string().regex(/^[1-9][0-9]*$/, 'Expected a positive integer.') }),
    headers: z.object({ 'x-api-version': z.literal('1', { errorMap: () => ({ message: 'Expected "1".' }) }) }),
    body: z.object({ name: z.string().min(1, 'Expected a non-empty name.') }),
    responses: { 200: z.object({ id: z.string(), name: z.string() }) },
  },
})

const s = initServer()

async function appWithContract() {
  const app = Fastify()
  app.setErrorHandler(handleError)
  app.register(
    s.plugin(s.router(contract, { rename: async ({ params, body }) => ({ status: 200, body: { id: params.id, name: body.name } }) })),
    { requestValidationErrorHandler: handleRequestValidationError },
  )
  await app.ready()
  return app
}

const send = async (headers: Record<string, string>, payload: unknown, id = '7') => {
  const app = await appWithContract()
  const response = await app.inject({ method: 'POST', url: `/things/${id}`, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(payload) })
  await app.close()
  return { status: response.statusCode, body: JSON.parse(response.body) as unknown }
}

test('default: a request the contract accepts is answered', async () => {
  expect(await send({ 'x-api-version': '1' }, { name: 'seven' })).toEqual({ status: 200, body: { id: '7', name: 'seven' } })
})

test.each([
  ['a bad header', { 'x-api-version': '2' }, { name: 'seven' }, '7', 'The header parameter "x-api-version" is invalid: got "2". Expected "1".'],
  ['a bad body', { 'x-api-version': '1' }, { name: '' }, '7', 'The body parameter "name" is invalid: got "". Expected a non-empty name.'],
  ['a body field of the wrong type', { 'x-api-version': '1' }, { name: 42 }, '7', 'The body parameter "name" is invalid: got "42". Expected string, received number'],
  ['a bad path parameter first', { 'x-api-version': '2' }, {}, '0', 'The path parameter "id" is invalid: got "0". Expected a positive integer.'],
])('%s: 400 invalid_parameter naming it', async (_, headers, payload, id, message) => {
  const { status, body } = await send(headers, payload, id)
  expect(status).toBe(400)
  expect(ErrorBodySchema.parse(body)).toEqual({ error: { code: 'invalid_parameter', message } })
})
