import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { JobSchema, refineJobKeys } from './job.ts'
import { NextCursorSchema } from './paging.ts'
import { ServiceSchema } from './service.ts'

export const CountSchema = z.number().int().min(0).describe('Number of items in the accompanying array.')

export const ServiceListSchema = extendApi(
  z.object({
    count: CountSchema,
    services: z.array(ServiceSchema).describe("Every registered seller's services, by ascending serviceId."),
  }),
  { title: 'ServiceList', description: 'All registered services.' },
)

export type ServiceList = z.output<typeof ServiceListSchema>

export const JobListSchema = extendApi(
  z.object({
    count: CountSchema,
    jobs: z.array(refineJobKeys(JobSchema)).describe('Jobs, newest first (highest jobId first).'),
    nextCursor: NextCursorSchema,
  }),
  { title: 'JobList', description: 'One page of the jobs that match the filters, newest first.' },
)

export type JobList = z.output<typeof JobListSchema>
