import { client } from './client.ts'
import type { TeeVerdict, TeeVerdictList } from '../../contract/tee.ts'
import { useApi } from './useApi.ts'

/** Each checked service's TEE verdict, by service id. */
export type TeeVerdicts = ReadonlyMap<string, TeeVerdict>

/**
 * Verdicts change when the indexer checks again (minutes apart), and the live feed does not carry
 * them: read again this often; unchanged answers are 304s with no body.
 */
const pollMs = 10_000

/**
 * Every service's verdict in one read (the list form, not one request per row), read again every
 * `pollMs`; undefined while it loads or when the indexer serves no verdicts: a badge then says
 * nothing rather than an error, the verdicts being an addition to the page.
 */
export function useTeeVerdicts(): TeeVerdicts | undefined {
  const list = useApi<TeeVerdictList>('tee verdicts', (extraHeaders) => client.services.listTeeVerdicts({ extraHeaders }), { pollMs })
  if (list.status !== 'ready') return undefined
  return new Map(list.data.verdicts.map((verdict) => [verdict.serviceId, verdict]))
}
