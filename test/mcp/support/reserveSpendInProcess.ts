import { reserveSpend } from '../../../mcp/spend/reserveSpend.ts'

// One of several processes racing on one ledger (see spendLedger.test.ts): `count` reservations at
// once, then the number that were recorded on stdout.
const [path, count, limit, price] = process.argv.slice(2) as [string, string, string, string]
const results = await Promise.allSettled(
  Array.from({ length: Number(count) }, () =>
    reserveSpend({ path, limit: BigInt(limit), price: BigInt(price), serviceId: 1n, buyer: '0x000000000000000000000000000000000000dEaD' }),
  ),
)
process.stdout.write(String(results.filter(({ status }) => status === 'fulfilled').length))
