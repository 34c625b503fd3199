// `tee-market/client`: the typed REST client with its live feed, the job watcher and their types,
// for frontends and scripts. Runs wherever `fetch` does; no Node built-in is imported.
export { createMarketClient } from './createMarketClient.ts'
export type { CreateMarketClientParameters, CreateMarketClientReturnType, EventsOptions, EventsReturnType, MarketClient } from './createMarketClient.ts'
export type { EventsFilters } from './followFeed.ts'
export type { MarketEvent } from './parseFeedEvent.ts'
export { finalJobStates, watchJob } from './watchJob.ts'
export type { WatchJobParameters, WatchJobReturnType } from './watchJob.ts'
export { verifyJobAttestationOffline } from './verifyJobAttestationOffline.ts'
export type {
  VerifyJobAttestationOfflineParameters,
  VerifyJobAttestationOfflineReturnType,
} from './verifyJobAttestationOffline.ts'
export { FeedProtocolError, FeedRefusedError, JobServiceMismatchError, JobWatchError } from '../errors/client.ts'
export { AttestationMissingError } from '../errors/mcp.ts'
export { BaseError } from '../errors/BaseError.ts'
export type { ErrorBody } from '../contract/error.ts'
export type { FeedEvent, JobFeedData, ServiceFeedData } from '../contract/feed.ts'
export type { Health } from '../contract/health.ts'
export type { Job, JobDetail, JobEvent, JobEventName, JobStateName } from '../contract/job.ts'
export type { JobList, ServiceList } from '../contract/lists.ts'
export type { MarketContract } from '../contract/router.ts'
export type { Seller } from '../contract/seller.ts'
export type { Service } from '../contract/service.ts'
export type { Stats } from '../contract/stats.ts'
