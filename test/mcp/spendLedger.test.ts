import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { reserveSpend } from '../../mcp/spend/reserveSpend.ts'
import { SpendLedgerSchema } from '../../mcp/spend/spendLedgerFile.ts'

// The ledger under contention, without a chain: many reservations at once (each a read, a check
// and a write of the file) take no more than the limit, and a lock left by a crashed holder is broken.

let folder: string
const run = promisify(execFile)

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tee-market-ledger-'))
})
afterAll(() => rm(folder, { recursive: true, force: true }))

const buyer = '0x000000000000000000000000000000000000dEaD'

test('default: 20 reservations at once against room for 5: exactly 5 are recorded', async () => {
  const path = join(folder, 'race', 'spend.json')
  const results = await Promise.allSettled(
    Array.from({ length: 20 }, () => reserveSpend({ path, limit: 500n, price: 100n, serviceId: 1n, buyer })),
  )
  expect(results.filter(({ status }) => status === 'fulfilled')).toHaveLength(5)
  for (const result of results) {
    if (result.status === 'rejected') expect(String(result.reason)).toContain('MARKET_SPEND_LIMIT_WEI allows 500 wei')
  }
  const ledger = SpendLedgerSchema.parse(JSON.parse(await readFile(path, 'utf8')))
  expect(ledger.entries).toHaveLength(5)
})

test('four processes racing on one ledger, ten reservations each against room for 5: exactly 5 are recorded', async () => {
  const path = join(folder, 'processes', 'spend.json')
  const script = fileURLToPath(new URL('./support/reserveSpendInProcess.ts', import.meta.url))
  const recorded = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', script, path, '10', '500', '100'])
      return Number(stdout)
    }),
  )
  expect(recorded.reduce((sum, count) => sum + count, 0)).toBe(5)
  expect(SpendLedgerSchema.parse(JSON.parse(await readFile(path, 'utf8'))).entries).toHaveLength(5)
})

test('a lock file left by a process that is gone is broken', async () => {
  const path = join(folder, 'stale', 'spend.json')
  await reserveSpend({ path, limit: null, price: 1n, serviceId: 1n, buyer })
  // Pid 2^22 + 1 is above Linux's pid_max: no such process.
  await writeFile(`${path}.lock`, `${2 ** 22 + 1} left-by-a-crash`)
  await reserveSpend({ path, limit: null, price: 1n, serviceId: 1n, buyer })
  expect(SpendLedgerSchema.parse(JSON.parse(await readFile(path, 'utf8'))).entries).toHaveLength(2)
  await expect(readFile(`${path}.lock`, 'utf8')).rejects.toThrow(/ENOENT/)
})

test('entries older than 24 hours no longer count, and are dropped', async () => {
  const path = join(folder, 'window', 'spend.json')
  const dayAgo = Date.now() - 24 * 60 * 60 * 1_000
  await reserveSpend({ path, limit: 100n, price: 100n, serviceId: 1n, buyer, now: dayAgo })
  await expect(reserveSpend({ path, limit: 100n, price: 100n, serviceId: 1n, buyer, now: dayAgo + 1_000 })).rejects.toThrow(
    `Room for it frees up at ${new Date(dayAgo + 24 * 60 * 60 * 1_000).toISOString()}.`,
  )
  await reserveSpend({ path, limit: 100n, price: 100n, serviceId: 1n, buyer, now: dayAgo + 24 * 60 * 60 * 1_000 + 1 })
  expect(SpendLedgerSchema.parse(JSON.parse(await readFile(path, 'utf8'))).entries).toHaveLength(1)
})
