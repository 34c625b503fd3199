import type { Address } from 'viem'
import { compareWithCeiling, type CompareWithCeilingReturnType, type LoadSettings, type LoadTarget } from './compareWithCeiling.ts'

export type MeasureRestParameters = {
  /** A settled job: the detail carries attestation fields and several events. */
  jobId: bigint
  seller: Address
  load: LoadSettings
  serverCpu: () => Promise<number>
}

export type MeasureRestReturnType = CompareWithCeilingReturnType

/** The filtered page's row: a seller's Settled jobs. */
export const filteredJobsTarget = 'GET /v1/jobs?seller=&state=3&limit=50'

/** Throughput and latency of the read endpoints with the N-job store loaded, against the ceiling. */
export function measureRest(restUrl: string, { jobId, seller, load, serverCpu }: MeasureRestParameters): Promise<MeasureRestReturnType> {
  return compareWithCeiling({ origin: restUrl, serverCpu, load, targets: restTargets({ jobId, seller }) })
}

/** The read endpoints the bench loads: one job, pages of jobs, the services, a seller, the stats, the health record. */
export function restTargets({ jobId, seller }: Pick<MeasureRestParameters, 'jobId' | 'seller'>): LoadTarget[] {
  return [
    { name: 'GET /v1/jobs/:id', method: 'GET', path: `/v1/jobs/${jobId}` },
    { name: 'GET /v1/jobs?limit=50', method: 'GET', path: '/v1/jobs?limit=50' },
    // Served from the seller's index, the state checked per job: should cost what the unfiltered page does.
    { name: filteredJobsTarget, method: 'GET', path: `/v1/jobs?seller=${seller}&state=3&limit=50` },
    { name: 'GET /v1/services', method: 'GET', path: '/v1/services' },
    { name: 'GET /v1/sellers/:address', method: 'GET', path: `/v1/sellers/${seller}` },
    { name: 'GET /v1/stats', method: 'GET', path: '/v1/stats' },
    { name: 'GET /healthz', method: 'GET', path: '/healthz' },
  ]
}
