import { type Address, type Hex, hexToBytes } from 'viem'
import { networks } from '../../../config/networks.ts'
import type { TeeEvidence } from '../../../contract/tee.ts'
import { readReportDataBinding } from '../../../tee/readReportDataBinding.ts'
import { toDcapCollateral } from '../../../tee/toDcapCollateral.ts'
import { verifyTdxQuoteInBrowser, type VerifyTdxQuoteInBrowserReturnType } from './verifyTdxQuoteInBrowser.ts'

export type VerifyTeeEvidenceParameters = {
  evidence: TeeEvidence
  /** The service's signing key as the registry has it now: what `report_data` must name. */
  signingAddress: Address
  /** The explorer's chain id: a root other than Intel's is trusted on the devnet's chain only. */
  chainId: number
}

/** One step of the check, as the page lists it; `skip` when an earlier step failed. */
export type BrowserTeeStep = { name: 'root' | 'quote' | 'binding'; status: 'pass' | 'fail' | 'skip'; reason: string }

export type VerifyTeeEvidenceReturnType = {
  ok: boolean
  steps: BrowserTeeStep[]
  /** The time the quote was verified at: the evidence's `fetchedAt`. */
  at: Date
}

const skipped = (name: BrowserTeeStep['name']): BrowserTeeStep => ({ name, status: 'skip', reason: 'Not checked: an earlier step failed.' })

/**
 * Verifies a service's TEE evidence in the browser, as of the time it was fetched: the root it
 * names may be trusted here, the quote verifies against it with its collateral (dcap-qvl, bundled),
 * and `report_data`, read from the verified quote, names the service's signing key. Asks no server.
 */
export function verifyTeeEvidence({ evidence, signingAddress, chainId }: VerifyTeeEvidenceParameters): VerifyTeeEvidenceReturnType {
  const devnetChain = chainId === networks.devnet.chainId
  const at = new Date(evidence.fetchedAt)
  const done = (steps: BrowserTeeStep[]) => ({ ok: steps.every(({ status }) => status === 'pass'), steps, at })
  if (evidence.rootCa !== null && !devnetChain) {
    return done([
      { name: 'root', status: 'fail', reason: "The evidence names a root of its own, not Intel's: such a root (the devnet's) is trusted on the devnet's chain only." },
      skipped('quote'),
      skipped('binding'),
    ])
  }
  const root: BrowserTeeStep = { name: 'root', status: 'pass', reason: evidence.rootCa === null ? "Intel's SGX root CA, bundled with dcap-qvl." : "The devnet's own root, trusted on the devnet's chain." }
  if (evidence.collateral === null) {
    return done([root, { name: 'quote', status: 'fail', reason: 'The evidence carries no collateral to verify the quote with.' }, skipped('binding')])
  }
  let verified: VerifyTdxQuoteInBrowserReturnType
  try {
    verified = verifyTdxQuoteInBrowser({
      quote: hexToBytes(evidence.quote),
      collateral: toDcapCollateral(evidence.collateral),
      now: at,
      rootCa: evidence.rootCa === null ? undefined : hexToBytes(evidence.rootCa),
    })
  } catch (error) {
    return done([root, { name: 'quote', status: 'fail', reason: (error as Error).message }, skipped('binding')])
  }
  const advisories = verified.advisoryIds.length === 0 ? '' : ` (${verified.advisoryIds.join(', ')})`
  const quote: BrowserTeeStep = { name: 'quote', status: 'pass', reason: `A TDX quote (version ${verified.version}), signed through the PCK chain to that root, with collateral valid then; TCB ${verified.tcbStatus}${advisories}.` }
  return done([root, quote, bindingStep(verified.reportData, signingAddress, evidence.nonce ?? undefined)])
}

function bindingStep(reportData: Uint8Array, signingAddress: Address, nonce: Hex | undefined): BrowserTeeStep {
  try {
    const { layout, nonceBound } = readReportDataBinding(reportData, { signingAddress, nonce })
    return { name: 'binding', status: 'pass', reason: `report_data names ${signingAddress} (layout ${layout}${nonceBound ? ', with the nonce sent' : ', no nonce: the quote may be replayed'}).` }
  } catch (error) {
    return { name: 'binding', status: 'fail', reason: (error as Error).message }
  }
}
