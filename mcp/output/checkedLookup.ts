import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { OutputAddressRefusedError } from '../../errors/output.ts'
import { classifyAddress } from './classifyAddress.ts'

type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * The `lookup` of a connection to a seller's output endpoint: resolves the host name and refuses
 * it when any of its addresses is not public, so the socket connects only to an address checked
 * here (no second resolution a rebinding name could answer differently). Node calls it only for
 * names: a URL naming an IP address connects to that address, which the person wrote.
 */
export const checkedLookup: LookupFunction = (hostname, options, callback: Callback) => {
  const { all, ...rest } = options as LookupOneOptions | LookupAllOptions
  dnsLookup(hostname, { ...rest, all: true }, (error, addresses) => {
    if (error !== null) return callback(error, [])
    for (const { address } of addresses) {
      const kind = classifyAddress(address)
      if (kind !== 'public') return callback(new OutputAddressRefusedError({ hostname, address, kind }) as NodeJS.ErrnoException, [])
    }
    const [first] = addresses
    if (all === true) return callback(null, addresses)
    if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address.`), { code: 'ENOTFOUND' }), [])
    callback(null, first.address, first.family)
  })
}
