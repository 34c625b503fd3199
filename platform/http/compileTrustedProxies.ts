import { BlockList, isIPv4 } from 'node:net'

export type CompileTrustedProxiesReturnType = (address: string) => boolean

/** proxy-addr's names for address families, as `--trust-proxy` accepts them (see ConfigSchema). */
const namedRanges: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
}

/**
 * Whether a socket address is one of the `--trust-proxy` addresses or ranges: the test Fastify's
 * `request.ip` makes per request, made here per connection (before any request says whom it forwards).
 * An IPv4 peer of a dual-stack socket (`::ffff:10.0.0.1`) is looked up as the IPv4 address it is.
 */
export function compileTrustedProxies(trustProxy: readonly string[] | false): CompileTrustedProxiesReturnType {
  if (trustProxy === false || trustProxy.length === 0) return () => false
  const list = new BlockList()
  for (const entry of trustProxy.flatMap((item) => namedRanges[item] ?? [item])) {
    const [ip = '', bits] = entry.split('/')
    const type = isIPv4(ip) ? 'ipv4' : 'ipv6'
    if (bits === undefined) list.addAddress(ip, type)
    else list.addSubnet(ip, Number(bits), type)
  }
  return (address) => {
    const ip = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address
    return list.check(ip, isIPv4(ip) ? 'ipv4' : 'ipv6')
  }
}
