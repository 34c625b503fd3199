import { type Address, type PublicClient, type WalletClient, createPublicClient, createWalletClient, http, parseEventLogs, zeroAddress } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { inferenceServingMockAbi } from '../../chain/abi/inferenceServingMock.ts'
import { seedAccounts } from '../../devnet/seed/seedAccounts.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'

let devnet: StartDevnetReturnType
let publicClient: PublicClient
let owner: WalletClient
let provider: WalletClient
let address: Address
const providerAccount = seedAccounts.sellers[0]

const params = {
  serviceType: 'chatbot',
  url: 'https://provider.example',
  model: 'llama-3.1-8b-instruct',
  verifiability: 'TeeML',
  inputPrice: 1n,
  outputPrice: 2n,
  additionalInfo: '{"TargetSeparated":false}',
  teeSignerAddress: seedAccounts.buyers[0]!.address,
}

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: false })
  const chain = { ...hardhat, rpcUrls: { default: { http: [devnet.rpcUrl] } } }
  publicClient = createPublicClient({ chain, transport: http(devnet.rpcUrl), pollingInterval: 50 })
  owner = createWalletClient({ chain, transport: http(devnet.rpcUrl), account: seedAccounts.deployer })
  provider = createWalletClient({ chain, transport: http(devnet.rpcUrl), account: providerAccount })
  address = devnet.deployment.tee!.inferenceServing
}, 60_000)
afterAll(() => devnet?.stop())

async function send(wallet: WalletClient, functionName: string, args: readonly unknown[]) {
  const hash = await wallet.writeContract({ address, abi: inferenceServingMockAbi, functionName, args, chain: wallet.chain, account: wallet.account! } as never)
  return publicClient.waitForTransactionReceipt({ hash })
}
const read = () => publicClient.readContract({ address, abi: inferenceServingMockAbi, functionName: 'getService', args: [providerAccount.address] })

test('default: a provider registers its record (unacknowledged), the owner acknowledges it, a new url keeps it, a new signer drops it', async () => {
  const registered = await send(provider, 'addOrUpdateService', [params])
  expect(parseEventLogs({ abi: inferenceServingMockAbi, logs: registered.logs })[0]).toMatchObject({ eventName: 'ServiceUpdated', args: { service: providerAccount.address, url: params.url } })
  expect(await read()).toMatchObject({ provider: providerAccount.address, url: params.url, teeSignerAcknowledged: false })

  const acknowledged = await send(owner, 'acknowledgeTEESignerByOwner', [providerAccount.address])
  expect(parseEventLogs({ abi: inferenceServingMockAbi, logs: acknowledged.logs })[0]).toMatchObject({
    eventName: 'ProviderTEESignerAcknowledged',
    args: { provider: providerAccount.address, teeSignerAddress: params.teeSignerAddress, acknowledged: true },
  })
  await send(provider, 'addOrUpdateService', [{ ...params, url: 'https://moved.example', inputPrice: 5n }])
  expect(await read()).toMatchObject({ url: 'https://moved.example', teeSignerAcknowledged: true })
  await send(provider, 'addOrUpdateService', [{ ...params, teeSignerAddress: seedAccounts.buyers[1]!.address }])
  expect(await read()).toMatchObject({ teeSignerAcknowledged: false })

  await send(owner, 'acknowledgeTEESigner', [providerAccount.address, true])
  await send(owner, 'revokeTEESignerAcknowledgement', [providerAccount.address])
  expect(await read()).toMatchObject({ teeSignerAcknowledged: false })

  const removed = await send(provider, 'removeService', [])
  expect(parseEventLogs({ abi: inferenceServingMockAbi, logs: removed.logs })[0]).toMatchObject({ eventName: 'ServiceRemoved' })
  expect(await publicClient.readContract({ address, abi: inferenceServingMockAbi, functionName: 'serviceExists', args: [providerAccount.address] })).toBe(false)
})

test('refusals: an unknown provider, a stranger acknowledging', async () => {
  await expect(read()).rejects.toThrow('ServiceNotExist')
  await expect(send(owner, 'acknowledgeTEESignerByOwner', [zeroAddress])).rejects.toThrow('ServiceNotExist')
  await send(provider, 'addOrUpdateService', [params])
  await expect(send(provider, 'acknowledgeTEESignerByOwner', [providerAccount.address])).rejects.toThrow('OwnableUnauthorizedAccount')
})
