import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createDatabaseCollateralStore } from '../../server/durable/createDatabaseCollateralStore.ts'
import { openPgliteDatabase } from '../../server/durable/openPgliteDatabase.ts'
import { fromDcapCollateral } from '../../tee/toDcapCollateral.ts'
import { readCollateral } from '../tee/support/fixtures.ts'

// The indexer keeps Intel's collateral in its database so that a restart verifies quotes without
// asking the PCS again: written by one process, read after the database is opened again.

let folder: string

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tee-market-collateral-db-'))
})

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

test("Intel's collateral survives a restart of the index's database, and a damaged entry reads as absent", async () => {
  const dataDir = join(folder, 'index')
  const entry = { collateral: fromDcapCollateral(readCollateral('tdx_quote')), expiresAt: new Date('2025-07-19T10:00:35Z'), fetchedAt: new Date('2025-07-01T00:00:00Z') }
  const key = 'https://api.trustedservices.intel.com|B0C06F000000|platform|tdx'

  const first = await openPgliteDatabase(dataDir)
  try {
    const store = createDatabaseCollateralStore(first)
    expect(await store.read(key)).toBeUndefined()
    await store.write(key, entry)
    await store.write(key, { ...entry, fetchedAt: new Date('2025-07-02T00:00:00Z') })
  } finally {
    await first.close()
  }

  const reopened = await openPgliteDatabase(dataDir)
  try {
    const store = createDatabaseCollateralStore(reopened)
    expect(await store.read(key)).toEqual({ ...entry, fetchedAt: new Date('2025-07-02T00:00:00Z') })
    await reopened.query(`UPDATE tee_collateral SET entry = $1 WHERE key = $2`, ['{"collateral":{"pck_crl":"not hex"}}', key])
    expect(await store.read(key)).toBeUndefined()
    await reopened.query(`UPDATE tee_collateral SET entry = $1 WHERE key = $2`, ['{"half":', key])
    expect(await store.read(key)).toBeUndefined()
  } finally {
    await reopened.close()
  }
})
