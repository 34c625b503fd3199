import type { MarketTool } from './defineTool.ts'
import { hostedTools } from './hostedTools.ts'
import { runTool } from './run.ts'
import type { LocalToolContext } from './ToolContext.ts'

/** The local (stdio) server's tools: the read tools and `run`. */
export const localTools: readonly MarketTool<LocalToolContext>[] = [...hostedTools, runTool]
