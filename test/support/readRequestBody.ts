import type { IncomingMessage } from 'node:http'

/** The whole body of a request to one of the tests' servers, as text. */
export async function readRequestBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
