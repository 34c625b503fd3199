import { describe, expect, test } from 'vitest'
import { compileTrustedProxies } from '../../platform/http/compileTrustedProxies.ts'

test('default: no --trust-proxy trusts no address', () => {
  const trusted = compileTrustedProxies(false)
  expect(['127.0.0.1', '::1', '10.0.0.1'].map(trusted)).toEqual([false, false, false])
  expect(compileTrustedProxies([])('127.0.0.1')).toBe(false)
})

describe('trustProxy', () => {
  test('addresses and CIDR ranges, IPv4 and IPv6', () => {
    const trusted = compileTrustedProxies(['127.0.0.2', '10.0.0.0/8', '2001:db8::/32'])
    expect(['127.0.0.2', '127.0.0.3', '10.200.1.1', '11.0.0.1', '2001:db8::7', '2001:db9::7'].map(trusted)).toEqual([true, false, true, false, true, false])
  })

  test("proxy-addr's names: loopback, linklocal, uniquelocal", () => {
    const trusted = compileTrustedProxies(['loopback', 'linklocal', 'uniquelocal'])
    expect(['127.9.9.9', '::1', '169.254.1.1', 'fe80::1', '192.168.1.1', '172.16.0.1', 'fd00::1', '8.8.8.8', '2001:db8::1'].map(trusted)).toEqual([
      true, true, true, true, true, true, true, false, false,
    ])
  })

  test('an IPv4 peer of a dual-stack socket is looked up as its IPv4 address', () => {
    const trusted = compileTrustedProxies(['127.0.0.2'])
    expect(trusted('::ffff:127.0.0.2')).toBe(true)
    expect(trusted('::ffff:127.0.0.3')).toBe(false)
  })
})
