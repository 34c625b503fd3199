import type { MarketTool } from './defineTool.ts'
import { getJobTool } from './getJob.ts'
import { getServiceTool } from './getService.ts'
import { getServiceTeeTool } from './getServiceTee.ts'
import { listServicesTool } from './listServices.ts'
import type { ToolContext } from './ToolContext.ts'
import { verifyAttestationTool } from './verifyAttestation.ts'

/**
 * The read tools, and nothing else: the hosted server never offers `run`, so no buyer key is
 * ever held on a shared server, whatever its environment holds.
 */
export const hostedTools: readonly MarketTool<ToolContext>[] = [
  listServicesTool,
  getServiceTool,
  getServiceTeeTool,
  getJobTool,
  verifyAttestationTool,
]
