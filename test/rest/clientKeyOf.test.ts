import { expect, test } from 'vitest'
import { clientKeyOf } from '../../platform/http/clientKeyOf.ts'

test('default: an IPv4 address is its own key', () => {
  expect(clientKeyOf('127.0.0.2')).toBe('127.0.0.2')
  expect(clientKeyOf('203.0.113.9')).toBe('203.0.113.9')
})

test('an IPv4-mapped IPv6 address (a dual-stack socket) is its IPv4 address', () => {
  expect(clientKeyOf('::ffff:203.0.113.9')).toBe('203.0.113.9')
})

test('an IPv6 address is its /64, however it is written', () => {
  const key = '2001:db8:7:1::/64'
  for (const address of ['2001:db8:7:1::a', '2001:db8:7:1:ffff:ffff:ffff:ffff', '2001:0DB8:0007:0001:0000:0000:0000:0001']) {
    expect(clientKeyOf(address), address).toBe(key)
  }
  expect(clientKeyOf('2001:db8:7:2::a')).toBe('2001:db8:7:2::/64')
  expect(clientKeyOf('::1')).toBe('::/64')
  expect(clientKeyOf('fe80::1%lo')).toBe('fe80::/64')
})

test('what is not an address is its own key', () => {
  expect(clientKeyOf('not an address')).toBe('not an address')
})
