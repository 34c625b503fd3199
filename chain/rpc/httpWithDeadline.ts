import { http, type HttpTransport, type HttpTransportConfig } from 'viem'
import { redactUrl } from '../../config/redactUrl.ts'
import { createDeadlineFetch, type CreateDeadlineFetchParameters } from './createDeadlineFetch.ts'
import { createStatusCheck } from './createStatusCheck.ts'

export type HttpWithDeadlineParameters = Omit<HttpTransportConfig, 'fetchFn' | 'timeout'> &
  Pick<CreateDeadlineFetchParameters, 'timeoutMs' | 'onExchange'>

/**
 * viem's HTTP transport with one deadline per request that covers the headers and the whole body
 * (see createDeadlineFetch); viem's own timeout, which stops at the headers, is off. A request
 * past its deadline fails with an RpcDeadlineError, a viem TimeoutError. A non-2xx answer is an
 * HTTP error with its status and Retry-After, even to a batch (createStatusCheck), so viem retries
 * a rate limit instead of misreading it.
 */
export function httpWithDeadline(url: string, { timeoutMs, onExchange, ...config }: HttpWithDeadlineParameters): HttpTransport {
  const node = redactUrl(url)
  return http(url, { onFetchResponse: createStatusCheck({ url: node }), ...config, timeout: 0, fetchFn: createDeadlineFetch({ timeoutMs, node, onExchange }) })
}
