import { isIPv4 } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * The key a client's limits count under: an IPv4 address as it is (an IPv4-mapped IPv6 one as its
 * IPv4), an IPv6 address by its /64, the block a subscriber is handed (RFC 6177). A client that
 * moves across the 2^64 addresses of its own /64 is still one client.
 */
export function clientKeyOf(address: string): string {
  if (isIPv4(address) || !ipaddr.isValid(address)) return address
  const parsed = ipaddr.process(address)
  if (parsed.kind() === 'ipv4') return parsed.toString()
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`
}
