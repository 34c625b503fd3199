import { request } from 'node:http'

export type HttpRequestParameters = {
  method?: string
  headers?: Record<string, string>
  body?: string
}

export type HttpRequestReturnType = {
  status: number
  headers: Record<string, string | string[] | undefined>
  /** The bytes on the wire, still compressed if the server compressed them. */
  body: Buffer
  /** `body` as UTF-8 text. */
  text: string
}

/**
 * A raw HTTP/1.1 request over a real socket. Unlike `fetch`, it sends the path exactly as given
 * (no normalisation of `%ZZ` or `..`), adds no Accept-Encoding and does not decompress.
 */
export function httpRequest(baseUrl: string, path: string, { method = 'GET', headers = {}, body }: HttpRequestParameters = {}): Promise<HttpRequestReturnType> {
  const { hostname, port } = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const outgoing = request({ hostname, port, path, method, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () => {
        const buffer = Buffer.concat(chunks)
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: buffer, text: buffer.toString('utf8') })
      })
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}
