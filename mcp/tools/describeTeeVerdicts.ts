import type { TeeVerdict } from '../../contract/tee.ts'
import { TeeVerdictPendingError } from '../../errors/notFound.ts'
import type { MarketSource } from '../source/MarketSource.ts'

/** The line beside get_service: the service's verdict in a sentence, or that it is not checked yet. */
export async function describeTeeVerdict(source: MarketSource, serviceId: bigint): Promise<string> {
  try {
    const { verdict, summary, checkedAt } = await source.getTeeVerdict({ serviceId })
    return `TEE: ${verdict}. ${summary} (checked ${checkedAt}; get_service_tee lists each check.)`
  } catch (error) {
    if (error instanceof TeeVerdictPendingError) return 'TEE: not checked yet; get_service_tee answers once it is.'
    throw error
  }
}

/** The line beside list_services: each service's verdict by id, and the ids not checked yet. */
export async function describeTeeVerdicts(source: MarketSource, serviceIds: readonly string[]): Promise<string> {
  const verdicts = new Map<string, TeeVerdict['verdict']>((await source.listTeeVerdicts()).map((v) => [v.serviceId, v.verdict]))
  const judged = serviceIds.filter((id) => verdicts.has(id)).map((id) => `${id} ${verdicts.get(id)}`)
  const pending = serviceIds.filter((id) => !verdicts.has(id))
  const waiting = pending.length === 0 ? '' : `; not checked yet: ${pending.join(', ')}`
  return `TEE verdicts by serviceId (get_service_tee lists the checks; run pays only what MARKET_REQUIRE_TEE accepts): ${judged.join(', ') || 'none yet'}${waiting}.`
}
