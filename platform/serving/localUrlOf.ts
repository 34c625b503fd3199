import { isIPv6, type AddressInfo } from 'node:net'

/**
 * The URL a client on this machine reaches a listening server at: its bound address, the
 * loopback for a wildcard (`0.0.0.0`, `::`), an IPv6 one in brackets. An address, never a name:
 * `run` refuses a name that resolves to a non-public address (see platform/fetch/createCheckedLookup).
 */
export function localUrlOf(scheme: 'http' | 'https', { address, port }: Pick<AddressInfo, 'address' | 'port'>): string {
  const reachable = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address
  return `${scheme}://${isIPv6(reachable) ? `[${reachable}]` : reachable}:${port}`
}
