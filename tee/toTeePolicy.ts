import type { ConfigSettings } from '../config/ConfigSchema.ts'
import type { TeeAllowList } from './checkTeeEvidence.ts'
import type { TcbPolicy } from './defaultTcbPolicy.ts'

/** The settings that make a TEE policy: the indexer's, the local MCP server's and `verify-tee`'s. */
export const teePolicyKeys = ['teeTcbStatuses', 'teeAllowedAdvisories', 'teeComposeHashes', 'teeMrtds'] as const
export type TeePolicySettings = Pick<ConfigSettings, (typeof teePolicyKeys)[number]>

export type ToTeePolicyReturnType = { policy: TcbPolicy; allowList: TeeAllowList }

/** What the operator accepts of a TEE, from its settings: the TCB policy and the allow-lists. */
export function toTeePolicy(settings: TeePolicySettings): ToTeePolicyReturnType {
  return {
    policy: { acceptedStatuses: settings.teeTcbStatuses, allowedAdvisoryIds: settings.teeAllowedAdvisories },
    allowList: { composeHashes: settings.teeComposeHashes, mrTds: settings.teeMrtds },
  }
}
