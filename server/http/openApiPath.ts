import { fileURLToPath } from 'node:url'

/**
 * The OpenAPI document at the repository's root. Two folders up both from here and from the
 * bundles in dist/app/, so one path serves `tsx` and `npm run serve` alike.
 */
export const openApiPath = fileURLToPath(new URL('../../openapi.json', import.meta.url))
