import { encodePacked, hexToString, keccak256, parseEventLogs, stringToHex, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { agentTokenAbi } from '../../chain/abi/agentToken.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { expectRevert, useContractsFixture } from './contractsFixture.ts'
import { confirmed, price, registerService } from './marketActions.ts'

const fixture = useContractsFixture()

const sellerServices = (seller: `0x${string}`) =>
  fixture.publicClient.readContract({
    address: fixture.deployment.registry,
    abi: registryAbi,
    functionName: 'getSellerServices',
    args: [seller],
  })

const readService = (serviceId: bigint) =>
  fixture.publicClient.readContract({
    address: fixture.deployment.registry,
    abi: registryAbi,
    functionName: 'getService',
    args: [serviceId],
  })

test('default: ids start at 1 and nothing is registered', async () => {
  const nextServiceId = await fixture.publicClient.readContract({
    address: fixture.deployment.registry,
    abi: registryAbi,
    functionName: 'nextServiceId',
  })
  expect(nextServiceId).toBe(1n)
  await expectRevert(readService(1n), 'UnknownService')
})

describe('registerService', () => {
  test('stores the struct, mints the agent token and emits ServiceRegistered', async () => {
    const capabilityHash = keccak256(stringToHex('chat-completion'))
    const providerAddress = '0x00000000000000000000000000000000000000A1'
    const hash = await fixture.seller.writeContract({
      address: fixture.deployment.registry,
      abi: registryAbi,
      functionName: 'registerService',
      args: [
        capabilityHash,
        'gpt-4o',
        providerAddress,
        fixture.signer.address,
        'api.openai.com',
        'centralized',
        true,
        price,
        4_096n,
        stringToHex('ipfs://agent-1'),
      ],
    })
    const receipt = await confirmed(fixture, hash)
    const block = await fixture.publicClient.getBlock({ blockNumber: receipt.blockNumber })

    const service = await readService(1n)
    expect(service).toEqual({
      inftTokenId: 0n,
      seller: fixture.seller.account.address,
      capabilityHash,
      modelId: 'gpt-4o',
      modelCommitment: keccak256(encodePacked(['string', 'address'], ['gpt-4o', providerAddress])),
      providerAddress,
      signingAddress: fixture.signer.address,
      providerIdentity: 'api.openai.com',
      providerType: 'centralized',
      targetSeparated: true,
      pricePerCall: price,
      maxInputBytes: 4_096n,
      registeredAt: block.timestamp,
      active: true,
    })

    const [registered] = parseEventLogs({ abi: registryAbi, logs: receipt.logs, eventName: 'ServiceRegistered' })
    expect(registered?.args).toEqual({
      serviceId: 1n,
      seller: fixture.seller.account.address,
      inftTokenId: 0n,
      capabilityHash,
      signingAddress: fixture.signer.address,
    })

    const token = { address: fixture.deployment.agentToken, abi: agentTokenAbi } as const
    const [transfer] = parseEventLogs({ abi: agentTokenAbi, logs: receipt.logs, eventName: 'Transfer' })
    expect(transfer?.args).toEqual({ from: zeroAddress, to: fixture.seller.account.address, tokenId: 0n })
    expect(await fixture.publicClient.readContract({ ...token, functionName: 'ownerOf', args: [0n] })).toBe(
      fixture.seller.account.address,
    )
    expect(
      await fixture.publicClient.readContract({ ...token, functionName: 'balanceOf', args: [fixture.seller.account.address] }),
    ).toBe(1n)
    expect(await fixture.publicClient.readContract({ ...token, functionName: 'tokenURI', args: [0n] })).toBe(
      hexToString(stringToHex('ipfs://agent-1')),
    )
  })

  test('ids start at 1 and token ids at 0; getSellerServices lists the ids whose token a seller holds', async () => {
    expect(await registerService(fixture)).toBe(1n)
    expect(await registerService(fixture, { seller: fixture.stranger })).toBe(2n)
    expect(await registerService(fixture)).toBe(3n)
    expect((await readService(3n)).inftTokenId).toBe(2n)
    expect(await sellerServices(fixture.seller.account.address)).toEqual([1n, 3n])
    expect(await sellerServices(fixture.stranger.account.address)).toEqual([2n])
    expect(await sellerServices(fixture.buyer.account.address)).toEqual([])
  })

  test('getSellerServices follows the agent token; the registrant keeps Service.seller and control', async () => {
    const serviceId = await registerService(fixture)
    const { inftTokenId } = await readService(serviceId)
    await confirmed(
      fixture,
      await fixture.seller.writeContract({
        address: fixture.deployment.agentToken,
        abi: agentTokenAbi,
        functionName: 'transferFrom',
        args: [fixture.seller.account.address, fixture.buyer.account.address, inftTokenId],
      }),
    )
    expect(await sellerServices(fixture.seller.account.address)).toEqual([])
    expect(await sellerServices(fixture.buyer.account.address)).toEqual([serviceId])
    expect((await readService(serviceId)).seller).toBe(fixture.seller.account.address)
    await expectRevert(
      fixture.buyer.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'delistService',
        args: [serviceId],
      }),
      'NotSeller',
    )
  })

  test('a price of zero is accepted, as on the reference', async () => {
    const serviceId = await registerService(fixture, { pricePerCall: 0n })
    expect((await readService(serviceId)).pricePerCall).toBe(0n)
  })

  test.each([
    ['EmptyModelId', { modelId: '' }],
    ['ZeroProviderAddress', { providerAddress: zeroAddress }],
    ['ZeroSigningAddress', { signingAddress: zeroAddress }],
  ] as const)('reverts with %s', async (errorName, parameters) => {
    await expectRevert(registerService(fixture, parameters), errorName)
  })

  test('only the registry can mint agent tokens', async () => {
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.agentToken,
        abi: agentTokenAbi,
        functionName: 'mint',
        args: [fixture.stranger.account.address, 'ipfs://forged'],
      }),
      'NotMinter',
    )
  })
})

describe('updateService', () => {
  test('sets price and active flag and emits ServiceUpdated', async () => {
    const serviceId = await registerService(fixture)
    const receipt = await confirmed(
      fixture,
      await fixture.seller.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'updateService',
        args: [serviceId, 123n, false],
      }),
    )
    const [updated] = parseEventLogs({ abi: registryAbi, logs: receipt.logs, eventName: 'ServiceUpdated' })
    expect(updated?.args).toEqual({ serviceId, newPrice: 123n, active: false })
    expect(await readService(serviceId)).toMatchObject({ pricePerCall: 123n, active: false })
  })

  test('reverts with NotSeller for anyone else', async () => {
    const serviceId = await registerService(fixture)
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'updateService',
        args: [serviceId, 1n, true],
      }),
      'NotSeller',
    )
  })

  test('reverts with UnknownService', async () => {
    await expectRevert(
      fixture.seller.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'updateService',
        args: [7n, 1n, true],
      }),
      'UnknownService',
    )
  })
})

describe('delistService', () => {
  test('deactivates and emits ServiceDelisted', async () => {
    const serviceId = await registerService(fixture)
    const receipt = await confirmed(
      fixture,
      await fixture.seller.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'delistService',
        args: [serviceId],
      }),
    )
    const [delisted] = parseEventLogs({ abi: registryAbi, logs: receipt.logs, eventName: 'ServiceDelisted' })
    expect(delisted?.args).toEqual({ serviceId })
    expect((await readService(serviceId)).active).toBe(false)
  })

  test('reverts with NotSeller for anyone else', async () => {
    const serviceId = await registerService(fixture)
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'delistService',
        args: [serviceId],
      }),
      'NotSeller',
    )
  })
})

describe('rotateSigningAddress', () => {
  test('replaces the key and emits SigningAddressRotated with old and new', async () => {
    const serviceId = await registerService(fixture)
    const newKey = fixture.stranger.account.address
    const receipt = await confirmed(
      fixture,
      await fixture.seller.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'rotateSigningAddress',
        args: [serviceId, newKey],
      }),
    )
    const [rotated] = parseEventLogs({ abi: registryAbi, logs: receipt.logs, eventName: 'SigningAddressRotated' })
    expect(rotated?.args).toEqual({ serviceId, oldKey: fixture.signer.address, newKey })
    expect((await readService(serviceId)).signingAddress).toBe(newKey)
  })

  test('reverts with NotSeller for anyone else and ZeroSigningAddress for the zero key', async () => {
    const serviceId = await registerService(fixture)
    await expectRevert(
      fixture.stranger.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'rotateSigningAddress',
        args: [serviceId, fixture.stranger.account.address],
      }),
      'NotSeller',
    )
    await expectRevert(
      fixture.seller.writeContract({
        address: fixture.deployment.registry,
        abi: registryAbi,
        functionName: 'rotateSigningAddress',
        args: [serviceId, zeroAddress],
      }),
      'ZeroSigningAddress',
    )
  })
})

test('getService reverts with UnknownService for 0 and past the last id', async () => {
  await registerService(fixture)
  await expectRevert(readService(0n), 'UnknownService')
  await expectRevert(readService(2n), 'UnknownService')
})
