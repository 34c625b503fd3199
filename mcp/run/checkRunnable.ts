import type { Service } from '../../contract/service.ts'
import { isAddressEqual } from 'viem'
import { PriceAboveCapError, PromptTooLargeError, ServiceInactiveError } from '../../errors/run.ts'
import { SellerNotAllowedError, ServiceNotAllowedError } from '../../errors/spend.ts'
import type { SpendSettings } from './readRunSettings.ts'

export type CheckRunnableParameters = {
  /** The service as the registry holds it now. */
  service: Service
  prompt: string
  /** `MARKET_MAX_PRICE_WEI`, parsed (or its default); null for `none`. */
  maxPrice: bigint | null
  /** Whether `maxPrice` is the default (unset): the refusal says so. */
  maxPriceIsDefault: boolean
  /** `MARKET_ALLOWED_SERVICES` and `MARKET_ALLOWED_SELLERS`, parsed. */
  allowed: Pick<SpendSettings, 'allowedServices' | 'allowedSellers'>
}

export type CheckRunnableReturnType = {
  /** The prompt's UTF-8 bytes: what `createJob` carries as the job input. */
  input: Uint8Array
  price: bigint
}

/** The checks on the service and the prompt that come before any transaction. */
export function checkRunnable({ service, prompt, maxPrice, maxPriceIsDefault, allowed: { allowedServices, allowedSellers } }: CheckRunnableParameters): CheckRunnableReturnType {
  const serviceId = BigInt(service.serviceId)
  if (allowedServices !== null && !allowedServices.includes(serviceId)) throw new ServiceNotAllowedError({ serviceId, allowed: allowedServices })
  if (allowedSellers !== null && !allowedSellers.some((seller) => isAddressEqual(seller, service.seller))) {
    throw new SellerNotAllowedError({ serviceId, seller: service.seller, allowed: allowedSellers })
  }
  if (!service.active) throw new ServiceInactiveError({ serviceId })
  const input = new TextEncoder().encode(prompt)
  const maxInputBytes = BigInt(service.maxInputBytes)
  if (BigInt(input.length) > maxInputBytes) {
    throw new PromptTooLargeError({ serviceId, bytes: input.length, maxInputBytes })
  }
  const price = BigInt(service.pricePerCall)
  if (maxPrice !== null && price > maxPrice) throw new PriceAboveCapError({ serviceId, price, cap: maxPrice, isDefault: maxPriceIsDefault })
  return { input, price }
}
