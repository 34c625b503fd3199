import type { ApiAnswer } from './useApi.ts'

/**
 * The indexer's TEE routes (issue 39), read by path: every other read goes through the typed client
 * (client.ts), but these routes are not in contract/router.ts yet. Once they are, each reader here
 * becomes its client call (`client.services.…({ params, extraHeaders })`) and this file goes.
 */
async function read(path: string, headers: Record<string, string>): Promise<ApiAnswer> {
  const response = await fetch(path, { headers: { accept: 'application/json', ...headers } })
  const body: unknown = response.status === 304 ? null : await response.json().catch(() => null)
  return { status: response.status, body, headers: response.headers }
}

/** `GET /v1/services/tee`: `{ count, verdicts }`, every service checked so far. */
export const listTeeVerdicts = (headers: Record<string, string>) => read('/v1/services/tee', headers)

/** `GET /v1/services/:id/tee`: one service's `TeeVerdict`. */
export const getTeeVerdict = (serviceId: string, headers: Record<string, string>) => read(`/v1/services/${encodeURIComponent(serviceId)}/tee`, headers)

/** `GET /v1/services/:id/tee/evidence`: the `TeeEvidence` behind the verdict. */
export const getTeeEvidence = (serviceId: string) => read(`/v1/services/${encodeURIComponent(serviceId)}/tee/evidence`, {})
