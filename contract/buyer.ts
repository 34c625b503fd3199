import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { describeField } from './describeField.ts'
import { JobSchema, refineJobKeys } from './job.ts'
import { NextCursorSchema } from './paging.ts'
import { AddressSchema } from './primitives.ts'

export const BuyerSchema = extendApi(
  z.object({
    buyer: describeField(AddressSchema, { description: 'The buyer address requested, EIP-55 checksummed.' }),
    jobs: z.array(refineJobKeys(JobSchema)).describe("The buyer's jobs, newest first: one page of at most `limit`."),
    nextCursor: NextCursorSchema,
  }),
  { title: 'Buyer', description: 'The jobs one address paid for, a page at a time; an address that paid for none has an empty array.' },
)

export type Buyer = z.output<typeof BuyerSchema>
