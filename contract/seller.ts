import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { describeField } from './describeField.ts'
import { JobSchema, refineJobKeys } from './job.ts'
import { NextCursorSchema } from './paging.ts'
import { AddressSchema } from './primitives.ts'
import { ServiceSchema } from './service.ts'

export const SellerSchema = extendApi(
  z.object({
    seller: describeField(AddressSchema, { description: 'The seller address requested, EIP-55 checksummed.' }),
    services: z.array(ServiceSchema).describe("The seller's services, newest first (all of them on every page)."),
    jobs: z.array(refineJobKeys(JobSchema)).describe("The seller's jobs, newest first: one page of at most `limit`."),
    nextCursor: NextCursorSchema,
  }),
  {
    title: 'Seller',
    description: 'Everything of one seller, its jobs a page at a time; a seller with nothing has two empty arrays.',
  },
)

export type Seller = z.output<typeof SellerSchema>
