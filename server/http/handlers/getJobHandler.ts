import type { RouterImplementation } from '@ts-rest/fastify'
import type { MarketContract } from '../../../contract/router.ts'
import { getJob } from '../../readers/getJob.ts'
import type { Store } from '../../store/createStore.ts'

export type GetJobHandler = RouterImplementation<MarketContract>['jobs']['getJob']

/** `GET /v1/jobs/:id`; an unknown id throws JobNotFoundError, answered as 404. */
export function getJobHandler({ store }: { store: Store }): GetJobHandler {
  return async ({ params }) => ({ status: 200, body: getJob(store, { jobId: BigInt(params.id) }) })
}
