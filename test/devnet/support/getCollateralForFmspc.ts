import { createRequire } from 'node:module'
import type { Collateral } from '@phala/dcap-qvl'

/**
 * dcap-qvl's own PCCS client (`src/collateral.js`), which its package index declares in its types
 * but does not export: a test of our PCCS must be read by the client verifiers use.
 */
export const getCollateralForFmspc = (
  createRequire(import.meta.url)('@phala/dcap-qvl/src/collateral.js') as {
    getCollateralForFmspc: (pccsUrl: string, fmspc: string, ca: 'platform' | 'processor', forSgx: boolean) => Promise<Collateral>
  }
).getCollateralForFmspc
