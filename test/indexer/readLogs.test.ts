import { createPublicClient, http } from 'viem'
import { getBlockNumber, getLogs } from 'viem/actions'
import { expect, inject, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { readLogs } from '../../chain/read/readLogs.ts'
import { marketEvents } from '../../server/indexer/marketEvents.ts'

const { rpcUrl, deployment } = inject('devnet')
const client = createPublicClient({ transport: http(rpcUrl) })

test('default', async () => {
  const parameters = {
    address: [deployment.registry, deployment.escrow],
    events: marketEvents,
    fromBlock: BigInt(deployment.deployBlock),
    toBlock: await getBlockNumber(client),
  }
  const [viemLogs, logs] = await Promise.all([getLogs(client, { ...parameters, strict: true }), readLogs(client, parameters)])
  expect(logs.length).toBeGreaterThan(0)
  expect(new Set(logs.map(({ eventName }) => eventName)).size).toBeGreaterThan(3)
  expect(logs).toEqual(viemLogs)
})

test('events of one contract only: the other contract\'s logs are not asked for', async () => {
  const events = escrowAbi.filter((item) => item.type === 'event')
  const toBlock = await getBlockNumber(client)
  const logs = await readLogs(client, { address: deployment.escrow, events, fromBlock: 0n, toBlock })
  expect(logs.length).toBeGreaterThan(0)
  expect(logs).toEqual(await getLogs(client, { address: deployment.escrow, events, fromBlock: 0n, toBlock, strict: true }))
})
