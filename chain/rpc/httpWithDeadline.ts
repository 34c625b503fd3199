import { http, type HttpTransport, type HttpTransportConfig } from 'viem'
import { redactUrl } from '../../config/redactUrl.ts'
import { createDeadlineFetch, type CreateDeadlineFetchParameters } from './createDeadlineFetch.ts'

export type HttpWithDeadlineParameters = Omit<HttpTransportConfig, 'fetchFn' | 'timeout'> &
  Pick<CreateDeadlineFetchParameters, 'timeoutMs' | 'onExchange'>

/**
 * viem's HTTP transport with one deadline per request that covers the headers and the whole body
 * (see createDeadlineFetch); viem's own timeout, which stops at the headers, is off. A request
 * past its deadline fails with an RpcDeadlineError, a viem TimeoutError.
 */
export function httpWithDeadline(url: string, { timeoutMs, onExchange, ...config }: HttpWithDeadlineParameters): HttpTransport {
  return http(url, { ...config, timeout: 0, fetchFn: createDeadlineFetch({ timeoutMs, node: redactUrl(url), onExchange }) })
}
