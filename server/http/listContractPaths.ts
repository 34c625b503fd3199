import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core'

/** Every route path of a (nested) ts-rest contract, in Fastify syntax (`/v1/jobs/:id`). */
export function listContractPaths(router: AppRouter): string[] {
  return Object.values(router).flatMap((entry: AppRoute | AppRouter) =>
    isAppRoute(entry) ? [entry.path] : listContractPaths(entry),
  )
}
