import { quoteUntrustedText } from '../contract/quoteUntrustedText.ts'
import { BaseError } from './BaseError.ts'

/**
 * Refusals of a TEE's evidence. Each names what was wrong and what is accepted; the message of
 * the library that found it (dcap-qvl) is kept as the cause, never as our message.
 */

/** The quote's bytes are not a DCAP quote at all. */
export class TeeQuoteMalformedError extends BaseError {
  override name = 'TeeQuoteMalformedError'
  constructor({ reason, cause }: { reason: string; cause?: unknown }) {
    super(`The TEE quote could not be read: ${reason}. A DCAP quote of a TDX guest (version 4 or 5) is expected.`, {
      code: 'tee_quote_malformed',
      cause,
    })
  }
}

/** The quote is well formed but not from a TDX guest (an SGX enclave's, or another version). */
export class TeeNotTdxError extends BaseError {
  override name = 'TeeNotTdxError'
  constructor({ teeType, version }: { teeType: string; version: number }) {
    super(`The quote is an ${teeType} quote of version ${version}; only an Intel TDX quote (version 4 or 5) is accepted.`, {
      code: 'tee_not_tdx',
    })
  }
}

/** TD attributes say DEBUG: the host can read and change the guest, so nothing in it is attested. */
export class TeeDebugTdError extends BaseError {
  override name = 'TeeDebugTdError'
  constructor({ tdAttributes, cause }: { tdAttributes: string; cause?: unknown }) {
    super(`The quote is from a debug TD (TD attributes ${tdAttributes}, TUD.DEBUG set): its host can read and alter it, so it is refused.`, {
      code: 'tee_debug_td',
      cause,
    })
  }
}

/** A piece of collateral is outside its validity window at the time of the check. */
export class TeeCollateralExpiredError extends BaseError {
  override name = 'TeeCollateralExpiredError'
  constructor({ what, now, cause }: { what: string; now: Date; cause?: unknown }) {
    super(`The collateral's ${what} is not valid at ${now.toISOString()}: fresh collateral from Intel's PCS (or the operator's PCCS) is needed.`, {
      code: 'tee_collateral_expired',
      cause,
    })
  }
}

/** The collateral itself is not what Intel signed, or does not belong to this quote. */
export class TeeCollateralInvalidError extends BaseError {
  override name = 'TeeCollateralInvalidError'
  constructor({ reason, cause }: { reason: string; cause?: unknown }) {
    super(`The collateral was refused: ${reason}.`, { code: 'tee_collateral_invalid', cause })
  }
}

/** A certificate on the quote's PCK chain, or the root itself, is on a CRL. */
export class TeeRevokedError extends BaseError {
  override name = 'TeeRevokedError'
  constructor({ what, cause }: { what: string; cause?: unknown }) {
    super(`The ${what} is revoked by Intel's CRL: the platform's attestation key cannot be trusted.`, {
      code: 'tee_revoked',
      cause,
    })
  }
}

/** The quote's signature, its QE report or its certificate chain does not verify to the root. */
export class TeeQuoteInvalidError extends BaseError {
  override name = 'TeeQuoteInvalidError'
  constructor({ reason, cause }: { reason: string; cause?: unknown }) {
    super(`The TDX quote does not verify: ${reason}. A quote signed through Intel's PCK chain to the trusted root is required.`, {
      code: 'tee_quote_invalid',
      cause,
    })
  }
}

/** The platform's TCB status (with its advisories) is outside the operator's policy. */
export class TeeTcbNotAcceptedError extends BaseError {
  override name = 'TeeTcbNotAcceptedError'
  readonly status: string
  readonly advisoryIds: readonly string[]
  constructor({
    status,
    advisoryIds,
    acceptedStatuses,
    allowedAdvisoryIds,
    cause,
  }: {
    status: string
    advisoryIds: readonly string[]
    acceptedStatuses: readonly string[]
    allowedAdvisoryIds: readonly string[]
    cause?: unknown
  }) {
    const advisories = advisoryIds.length === 0 ? 'no advisory' : `advisories ${advisoryIds.join(', ')}`
    const allowed = allowedAdvisoryIds.length === 0 ? 'none' : allowedAdvisoryIds.join(', ')
    super(
      `The platform's TCB status "${status}" (${advisories}) is not accepted: accepted statuses are ${acceptedStatuses.join(', ')}; advisories allowed beyond them: ${allowed}.`,
      { code: 'tee_tcb_not_accepted', cause },
    )
    this.status = status
    this.advisoryIds = advisoryIds
  }
}

/** `report_data` names no key, or another key, in every layout the brokers use. */
export class TeeReportDataMismatchError extends BaseError {
  override name = 'TeeReportDataMismatchError'
  constructor({ signingAddress, reportData, layouts }: { signingAddress: string; reportData: string; layouts: readonly string[] }) {
    super(
      `The quote's report_data does not name signing address "${signingAddress}" in any accepted layout (${layouts.join(', ')}): report_data is ${reportData}.`,
      { code: 'tee_report_data_mismatch' },
    )
  }
}

/** The event log does not replay to the quote's RTMR, or an event's digest is not its content's. */
export class TeeEventLogMismatchError extends BaseError {
  override name = 'TeeEventLogMismatchError'
  constructor({ reason }: { reason: string }) {
    super(`The event log does not match the quote: ${reason}.`, { code: 'tee_event_log_mismatch' })
  }
}

/** No compose hash can be read, or `sha256(app_compose)` is not the measured one. */
export class TeeComposeHashError extends BaseError {
  override name = 'TeeComposeHashError'
  constructor({ reason }: { reason: string }) {
    super(`The application's compose hash could not be established: ${reason}.`, { code: 'tee_compose_hash' })
  }
}

/** An attestation report (the JSON a provider serves) has no usable quote or a malformed field. */
export class TeeReportMalformedError extends BaseError {
  override name = 'TeeReportMalformedError'
  constructor({ field, reason }: { field: string; reason: string }) {
    super(`The attestation report's ${field} is unusable: ${reason}.`, { code: 'tee_report_malformed' })
  }
}

/** The platform's TCB is older than every level Intel's TCB info rates for its FMSPC. */
export class TeeTcbUnlistedError extends BaseError {
  override name = 'TeeTcbUnlistedError'
  constructor({ cause }: { cause?: unknown }) {
    super(
      "The platform's TCB matches no level of Intel's TCB info for its FMSPC: it is older than every level Intel rates, so its status is unknown and it is refused.",
      { code: 'tee_tcb_unlisted', cause },
    )
  }
}

/** A provider's endpoint names or resolves to an address off the public internet. */
export class TeeAddressRefusedError extends BaseError {
  override name = 'TeeAddressRefusedError'
  constructor({ hostname, address, kind }: { hostname: string; address: string; kind: string }) {
    super(
      `${JSON.stringify(hostname)} is ${hostname === address ? '' : `resolved to ${address}, `}a ${kind} address: a provider's URL is its own text, so only public addresses are fetched (a devnet allows its loopback explicitly).`,
      { code: 'tee_address_refused' },
    )
  }
}

/** A report's GPU evidence (`nvidia_payload`) is not NVIDIA's remote-attestation payload. */
export class TeeGpuEvidenceMalformedError extends BaseError {
  override name = 'TeeGpuEvidenceMalformedError'
  constructor({ reason, cause }: { reason: string; cause?: unknown }) {
    super(
      `The GPU evidence (nvidia_payload) is unusable: ${reason}. NVIDIA's remote-attestation payload is expected: {"nonce": 64 hex, "evidence_list": [{"certificate", "evidence"}], "arch"}.`,
      { code: 'tee_gpu_evidence_malformed', cause },
    )
  }
}

/** A token NRAS answered does not verify: its algorithm, its key, its signature or its validity time. */
export class TeeGpuTokenInvalidError extends BaseError {
  override name = 'TeeGpuTokenInvalidError'
  constructor({ token, reason, cause }: { token: string; reason: string; cause?: unknown }) {
    super(`The ${token} token from NRAS does not verify: ${reason}. An unexpired ES384 JWT signed by a key of the verifier's key set is required.`, {
      code: 'tee_gpu_token_invalid',
      cause,
    })
  }
}

/** NRAS's signed answer refuses the GPU evidence: a false result, a failed GPU, or a nonce that is not the one expected. */
export class TeeGpuNotAttestedError extends BaseError {
  override name = 'TeeGpuNotAttestedError'
  constructor({ reason, cause }: { reason: string; cause?: unknown }) {
    super(`The GPU evidence is not attested: ${reason}.`, { code: 'tee_gpu_not_attested', cause })
  }
}

/** What could not be fetched, for the messages below. */
export type TeeFetchWhat = 'attestation report' | 'PCK CRL' | 'TCB info' | 'QE identity' | 'root CA CRL' | 'NRAS attestation' | 'NRAS key set'

/**
 * A report or a piece of collateral could not be had: no answer in time, a redirect, too many
 * bytes, a status other than 2xx, a body that is not what the endpoint serves. The verdict shows
 * it as `unreachable` with this message.
 */
export class TeeFetchError extends BaseError {
  override name = 'TeeFetchError'
  readonly url: string
  constructor({ what, url, reason, allowed, cause }: { what: TeeFetchWhat; url: string; reason: string; allowed: string; cause?: unknown }) {
    // A provider's URL is its own text: quoted, so it can neither end the sentence nor start a line.
    super(`The ${what} at ${quoteUntrustedText(url.length > 300 ? `${url.slice(0, 300)}…` : url)} could not be had: ${reason}. ${allowed}`, { code: 'tee_fetch_failed', cause })
    this.url = url
  }
}

/** The provider's record on 0G could not be read (the chain did not answer, or answered off the ABI). */
export class TeeProviderRecordError extends BaseError {
  override name = 'TeeProviderRecordError'
  constructor({ provider, contract, cause }: { provider: string; contract: string; cause?: unknown }) {
    super(`The 0G record of provider ${provider} could not be read from InferenceServing ${contract}${cause instanceof Error ? ` (${cause.message.split('\n')[0]})` : ''}.`, {
      code: 'tee_provider_record_unreadable',
      cause,
    })
  }
}

/** A TEE evidence file (the `tee:verify` command's input) is not JSON of the `TeeEvidence` shape. */
export class TeeEvidenceFileError extends BaseError {
  override name = 'TeeEvidenceFileError'
  constructor({ path, reason, cause }: { path: string; reason: string; cause?: unknown }) {
    super(`The evidence file ${JSON.stringify(path)} is unusable: ${reason}. A TeeEvidence JSON object (GET /v1/services/:id/tee/evidence) is expected.`, {
      code: 'tee_evidence_file',
      cause,
    })
  }
}
