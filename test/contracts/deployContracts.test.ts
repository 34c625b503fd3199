import { expect, test } from 'vitest'
import { agentTokenAbi } from '../../chain/abi/agentToken.ts'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { reputationVaultAbi } from '../../chain/abi/reputationVault.ts'
import { DeploymentSchema } from '../../config/deployment.ts'
import { useContractsFixture } from './contractsFixture.ts'

const fixture = useContractsFixture()

test('default: returns checksummed addresses of deployed code and the deploy block', async () => {
  const { deployment } = fixture
  expect(DeploymentSchema.parse(deployment)).toEqual(deployment)
  expect(deployment.chainId).toBe(31337)
  expect(deployment.deployBlock).toMatch(/^[1-9][0-9]*$/)
  for (const address of [
    deployment.registry,
    deployment.escrow,
    deployment.arbiter,
    deployment.attestationVerifier,
    deployment.reputationVault,
    deployment.agentToken,
  ]) {
    const code = await fixture.publicClient.getCode({ address })
    expect(code?.length ?? 0, `no code at ${address}`).toBeGreaterThan(2)
  }
  const first = await fixture.publicClient.getBlock({ blockNumber: BigInt(deployment.deployBlock) })
  expect(first.transactions).toHaveLength(1)
})

test('the contracts know each other and the treasury; the agent token belongs to the registry', async () => {
  const { deployment, publicClient } = fixture
  const escrow = { address: deployment.escrow, abi: escrowAbi } as const
  const arbiter = { address: deployment.arbiter, abi: arbiterAbi } as const
  expect(await publicClient.readContract({ ...escrow, functionName: 'registry' })).toBe(deployment.registry)
  expect(await publicClient.readContract({ ...escrow, functionName: 'verifier' })).toBe(deployment.attestationVerifier)
  expect(await publicClient.readContract({ ...escrow, functionName: 'reputationVault' })).toBe(deployment.reputationVault)
  expect(await publicClient.readContract({ ...escrow, functionName: 'arbiter' })).toBe(deployment.arbiter)
  expect(await publicClient.readContract({ ...escrow, functionName: 'treasury' })).toBe(fixture.owner.account.address)
  expect(await publicClient.readContract({ ...arbiter, functionName: 'escrow' })).toBe(deployment.escrow)
  expect(await publicClient.readContract({ ...arbiter, functionName: 'registry' })).toBe(deployment.registry)
  expect(await publicClient.readContract({ ...arbiter, functionName: 'verifier' })).toBe(deployment.attestationVerifier)
  expect(await publicClient.readContract({ ...arbiter, functionName: 'treasury' })).toBe(fixture.owner.account.address)
  expect(
    await publicClient.readContract({ address: deployment.reputationVault, abi: reputationVaultAbi, functionName: 'escrow' }),
  ).toBe(deployment.escrow)
  expect(
    await publicClient.readContract({ address: deployment.registry, abi: registryAbi, functionName: 'agentNFT' }),
  ).toBe(deployment.agentToken)
  expect(
    await publicClient.readContract({ address: deployment.agentToken, abi: agentTokenAbi, functionName: 'minter' }),
  ).toBe(deployment.registry)
})

test('DeploymentSchema rejects lowercase addresses and non-decimal blocks', () => {
  const lowercase = { ...fixture.deployment, registry: fixture.deployment.registry.toLowerCase() }
  expect(DeploymentSchema.safeParse(lowercase).success).toBe(false)
  expect(DeploymentSchema.safeParse({ ...fixture.deployment, deployBlock: '0x1' }).success).toBe(false)
  expect(DeploymentSchema.safeParse({ ...fixture.deployment, deployBlock: '01' }).success).toBe(false)
})
