import { BlockList, isIPv4, isIPv6 } from 'node:net'
import type { NonPublicKind } from '../../errors/output.ts'

export type ClassifyAddressReturnType = 'public' | NonPublicKind

type Range = readonly [network: string, prefix: number]

/** Checked in this order: the first that holds the address names it. IPv4-mapped IPv6 (::ffff:a.b.c.d) is checked as its IPv4 address. */
const ranges: readonly (readonly [NonPublicKind, readonly Range[]])[] = [
  ['loopback', [['127.0.0.0', 8], ['::1', 128]]],
  ['private', [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['fc00::', 7]]],
  ['link-local', [['169.254.0.0', 16], ['fe80::', 10]]],
  [
    'non-public',
    [
      // "This network", carrier-grade NAT, IETF protocol assignments, documentation, benchmarking, multicast, reserved and broadcast.
      ['0.0.0.0', 8], ['100.64.0.0', 10], ['192.0.0.0', 24], ['192.0.2.0', 24], ['198.18.0.0', 15],
      ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
      // Unspecified and IPv4-compatible, discard, local-use NAT64, documentation, 6to4 (embeds any IPv4 address), site-local, multicast.
      ['::', 96], ['100::', 64], ['64:ff9b:1::', 48], ['2001:db8::', 32], ['2002::', 16], ['fec0::', 10], ['ff00::', 8],
    ],
  ],
]

const lists = ranges.map(([kind, subnets]): [NonPublicKind, BlockList] => {
  const list = new BlockList()
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, isIPv4(network) ? 'ipv4' : 'ipv6')
  return [kind, list]
})

/** The well-known NAT64 prefix: the gateway connects to the IPv4 address in the last 32 bits. */
const nat64 = /^64:ff9b::(?:([0-9a-f]{1,4}):([0-9a-f]{1,4})|(\d+\.\d+\.\d+\.\d+))$/i

/**
 * Whether an IP address (as `dns.lookup` answers it) is on the public internet, or which kind of
 * non-public address it is. Anything that is not an IP address is "non-public".
 */
export function classifyAddress(address: string): ClassifyAddressReturnType {
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined
  if (family === undefined) return 'non-public'
  const embedded = nat64.exec(address)
  if (embedded !== null) return classifyAddress(embedded[3] ?? hexToIpv4(embedded[1]!, embedded[2]!))
  for (const [kind, list] of lists) if (list.check(address, family)) return kind
  return 'public'
}

function hexToIpv4(high: string, low: string): string {
  const value = (Number.parseInt(high, 16) << 16) | Number.parseInt(low, 16)
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.')
}
