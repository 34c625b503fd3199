import type { Config } from '../config/ConfigSchema.ts'
import type { StartDevnetReturnType } from './startDevnet.ts'

export type DevnetComponentContext = {
  config: Config
  devnet: StartDevnetReturnType
  /** One line to the terminal, prefixed with the component's name. */
  log: (message: string) => void
}

export type StartedDevnetComponent = {
  /** What to print, e.g. `{ REST: 'http://127.0.0.1:8080' }`. */
  urls: Record<string, string>
  stop: () => Promise<void>
}

/** A piece `npm start` runs on top of the devnet: the indexer, the hosted MCP, the seller. */
export type DevnetComponent = {
  name: string
  start: (context: DevnetComponentContext) => Promise<StartedDevnetComponent>
}
