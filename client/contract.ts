// `tee-market/contract`: the ts-rest contract of the REST API and the zod schemas of every shape
// it and the MCP tools answer with, for servers, mocks and validation of your own.
export * from '../contract/attestation.ts'
export * from '../contract/error.ts'
export * from '../contract/health.ts'
export * from '../contract/job.ts'
export * from '../contract/jobsQuery.ts'
export * from '../contract/lists.ts'
export * from '../contract/mcp.ts'
export * from '../contract/primitives.ts'
export * from '../contract/router.ts'
export * from '../contract/seller.ts'
export * from '../contract/service.ts'
export * from '../contract/stats.ts'
