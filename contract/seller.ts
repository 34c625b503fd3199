import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { describeField } from './describeField.ts'
import { JobSchema, refineJobKeys } from './job.ts'
import { AddressInputSchema } from './primitives.ts'
import { ServiceSchema } from './service.ts'

export const SellerSchema = extendApi(
  z.object({
    seller: describeField(AddressInputSchema, {
      description: 'The seller address exactly as requested (case preserved).',
    }),
    services: z.array(ServiceSchema).describe("The seller's services, newest first."),
    jobs: z.array(refineJobKeys(JobSchema)).describe("The seller's jobs, newest first."),
  }),
  {
    title: 'Seller',
    description: 'Everything of one seller; a seller with nothing has two empty arrays.',
  },
)

export type Seller = z.output<typeof SellerSchema>
