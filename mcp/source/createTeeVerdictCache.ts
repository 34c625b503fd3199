import type { Service } from '../../contract/service.ts'
import type { TeeVerdict } from '../../contract/tee.ts'
import type { CheckServiceTeeReturnType } from '../../tee/checkServiceTee.ts'

export type TeeVerdictCache = {
  /** The service's verdict: the last one while it stands for this signing key, else a fresh check. */
  verdictOf(service: Service): Promise<TeeVerdict>
}

export type CreateTeeVerdictCacheParameters = {
  check: (service: Service) => Promise<CheckServiceTeeReturnType>
  now?: (() => number) | undefined
}

/**
 * Verdicts checked in this process, for a server that reads the chain and takes no indexer's
 * word: each kept until it expires or the service's key changes, and one check at a time per
 * service however many calls ask.
 */
export function createTeeVerdictCache({ check, now = Date.now }: CreateTeeVerdictCacheParameters): TeeVerdictCache {
  const verdicts = new Map<string, Promise<TeeVerdict>>()
  const standing = (verdict: TeeVerdict, service: Service) =>
    verdict.signingAddress.toLowerCase() === service.signingAddress.toLowerCase() && now() < Date.parse(verdict.expiresAt)
  return {
    async verdictOf(service) {
      const cached = verdicts.get(service.serviceId)
      if (cached !== undefined) {
        const verdict = await cached.catch(() => undefined)
        if (verdict !== undefined && standing(verdict, service)) return verdict
        if (verdicts.get(service.serviceId) !== cached) return this.verdictOf(service)
      }
      const checking = check(service).then(({ verdict }) => verdict)
      verdicts.set(service.serviceId, checking)
      checking.catch(() => verdicts.delete(service.serviceId))
      return checking
    },
  }
}
