import type { Config } from '../config/ConfigSchema.ts'
import type { Logger } from '../platform/logging/createLogger.ts'
import type { StoreReader } from '../server/store/StoreReader.ts'
import type { StartDevnetReturnType } from './startDevnet.ts'

export type DevnetComponentContext = {
  config: Config
  devnet: StartDevnetReturnType
  /** One info line through the process's logger, naming the component. */
  log: (message: string) => void
  /** The process's logger (see createLogger), for components that log structured fields. */
  logger: Logger
  /** The indexer's store once a component has started one: later components read it in process. */
  store: StoreReader | undefined
}

export type StartedDevnetComponent = {
  /** What to print, e.g. `{ REST: 'http://127.0.0.1:8080' }`. */
  urls: Record<string, string>
  stop: () => Promise<void>
  /** The store of the indexer this component runs, if it runs one. */
  store?: StoreReader | undefined
  /** The reference seller's output endpoint, `{outputsUrl}/outputs/{jobId}`, if this component runs it. */
  outputsUrl?: string | undefined
}

/** A piece `npm start` runs on top of the devnet: the indexer, the hosted MCP, the seller. */
export type DevnetComponent = {
  name: string
  start: (context: DevnetComponentContext) => Promise<StartedDevnetComponent>
}
