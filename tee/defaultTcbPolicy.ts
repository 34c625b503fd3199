import type { TcbStatus } from '@phala/dcap-qvl'

/**
 * The statuses an operator may accept. `Revoked` never passes, and `Unknown` is no rating at all:
 * neither can be named.
 */
export const acceptableTcbStatuses = [
  'UpToDate',
  'SWHardeningNeeded',
  'ConfigurationNeeded',
  'ConfigurationAndSWHardeningNeeded',
  'OutOfDate',
  'OutOfDateConfigurationNeeded',
] as const satisfies readonly TcbStatus[]
export type AcceptableTcbStatus = (typeof acceptableTcbStatuses)[number]

/** What the operator accepts of a platform's TCB, as Intel's collateral rates it. */
export type TcbPolicy = {
  acceptedStatuses: readonly TcbStatus[]
  /**
   * Advisories (`INTEL-SA-…`) the operator has judged harmless here: a status outside
   * `acceptedStatuses` (never `Revoked`) still passes when every advisory it carries is listed.
   */
  allowedAdvisoryIds: readonly string[]
}

/**
 * `UpToDate`: the platform has every microcode, firmware and TDX module fix Intel knows of.
 * `SWHardeningNeeded`: the platform is as patched as it can be; the remaining advisories are
 * mitigated (or not) by the software inside the TD, which the compose hash and measurements
 * identify, so refusing the platform for them would refuse every current Intel server.
 * `ConfigurationNeeded` and `OutOfDate` name a fix the host's operator has not made (a BIOS
 * setting, a microcode or TDX module update): those are left to an explicit advisory allowance.
 */
export const defaultTcbPolicy: TcbPolicy = {
  acceptedStatuses: ['UpToDate', 'SWHardeningNeeded'],
  allowedAdvisoryIds: [],
}
