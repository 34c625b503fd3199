import {
  type Abi,
  type AbiEvent,
  type AbiFunction,
  parseAbi,
  toEventSelector,
  toFunctionSelector,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { attestationVerifierAbi } from '../../chain/abi/attestationVerifier.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { reputationVaultAbi } from '../../chain/abi/reputationVault.ts'

/*
 * The reference ABI, copied literally from shared/spec/chain-interface.md: the registry and escrow
 * blocks, and the whole block of "The reference deployment in full". The only rewrites done below
 * before parsing (specSignatures): comments are dropped, except that the vault's Reputation struct,
 * spelled out in a comment, becomes a struct declaration; a declaration wrapped over two lines is
 * joined and several on one line are split; `function a() / b() view returns (T)` becomes one
 * function per name; the `JobState` enum (which human-readable ABI cannot express) becomes the
 * uint8 it encodes to. Nothing here is read from our compiled ABI.
 */
const registrySpec = `
struct Service {
  uint256 inftTokenId; address seller; bytes32 capabilityHash; string modelId;
  bytes32 modelCommitment; address providerAddress; address signingAddress;
  string providerIdentity; string providerType; bool targetSeparated;
  uint128 pricePerCall; uint64 maxInputBytes; uint64 registeredAt; bool active;
}
event ServiceRegistered(uint256 indexed serviceId, address indexed seller, uint256 inftTokenId, bytes32 capabilityHash, address signingAddress)
event ServiceUpdated(uint256 indexed serviceId, uint128 newPrice, bool active)
event ServiceDelisted(uint256 indexed serviceId)
event SigningAddressRotated(uint256 indexed serviceId, address oldKey, address newKey)

function registerService(bytes32 capabilityHash, string modelId, address providerAddress, address signingAddress,
    string providerIdentity, string providerType, bool targetSeparated, uint128 pricePerCall,
    uint64 maxInputBytes, bytes inftMetadataURI) returns (uint256 serviceId)
function updateService(uint256 serviceId, uint128 newPrice, bool active)      // seller only
function delistService(uint256 serviceId)                                     // seller only
function rotateSigningAddress(uint256 serviceId, address newSigningKey)       // seller only
function getService(uint256 serviceId) view returns (Service)                 // reverts for an unknown id
function getSellerServices(address seller) view returns (uint256[])
function nextServiceId() view returns (uint256)                               // ids start at 1
`

const escrowSpec = `
enum JobState { Pending, Sealed, Attested, Settled, Expired, Disputed, Slashed }   // 0..6
struct Job {
  uint256 serviceId; address buyer; address seller; uint128 amount; uint128 protocolFee;
  uint64 createdAt; uint64 timeout; JobState state; bytes32 inputCommitment;
  bytes32 outputRootHash; bytes32 chatId; bytes attestationText; bytes attestationSignature;
}
event JobCreated(uint256 indexed jobId, uint256 indexed serviceId, address indexed buyer, bytes32 inputCommitment, uint128 amount, uint64 timeout)
event JobAttested(uint256 indexed jobId, bytes32 outputRootHash, bytes32 chatId, address recoveredSigner)
event JobSettled(uint256 indexed jobId, address indexed seller, uint128 paidToSeller, uint128 protocolFee)
event JobExpired(uint256 indexed jobId, address indexed buyer, uint128 refunded)
event JobDisputed(uint256 indexed jobId, address indexed disputer)
event JobSlashed(uint256 indexed jobId, address indexed slashedSeller, uint128 bondAmount, uint128 toDisputer, uint128 toTreasury, uint128 burned)

function createJob(uint256 serviceId, bytes encryptedInput, uint64 timeout) payable returns (uint256 jobId)
function submitAttestation(uint256 jobId, bytes32 outputRootHash, bytes32 chatId, bytes attestationText, bytes attestationSignature)
function reclaimExpired(uint256 jobId)
function dispute(uint256 jobId) payable
function markSlashed(uint256 jobId, address slashedSeller, uint128 bondAmount, uint128 toDisputer, uint128 toTreasury, uint128 burned)  // arbiter only
function getJob(uint256 jobId) view returns (Job)                             // reverts for an unknown id
function nextJobId() view returns (uint256)                                   // ids start at 1
`


/** "The reference deployment in full", verbatim. */
const referenceSpec = `
// registry (as above, plus)
function agentNFT() view returns (address)                 // ours: agentToken()
// getSellerServices(seller) follows agent-token ownership; Service.seller stays the registrant.
// Agent-token ids start at 0.
error EmptyModelId(); error NotSeller(); error ServiceInactive(); error UnknownService();
error ZeroProviderAddress(); error ZeroSigningAddress();

// escrow (as above, plus)
function DISPUTE_BOND() view returns (uint128)             // 0.001 native token: the minimum sent with dispute()
function PROTOCOL_FEE_BPS() view returns (uint16)          // 500
function isChatIdUsed(bytes32 chatId) view returns (bool)  // ours: chatIdUsed
function jobEscrowBalance(uint256 jobId) view returns (uint128)
function protocolFeesPending() view returns (uint128)
function totalLockedEscrow() view returns (uint128)
function sweepFees()                                       // treasury only
function arbiter() / registry() / verifier() / reputationVault() / treasury() view returns (address)
error AlreadyExpired(); error ArbiterOnly(); error AttestationInvalid(); error BondTooSmall();
error ChatIdReused(); error JobNotFound(); error NoFeesToSweep(); error NotBuyer(); error NotDisputed();
error NotExpired(); error NotPending(); error NotSeller(); error NotSettled(); error ServiceInactive();
error TreasuryOnly(); error UnknownService(); error ZeroAmount(); error ZeroTimeout();
// createJob accepts any msg.value > 0 (not only the price) and reverts ZeroTimeout for timeout 0.
// JobAttested.recoveredSigner is the service's signingAddress at settlement.
// dispute(jobId) forwards the bond to the arbiter's openDispute(jobId, msg.sender).

// arbiter: bonds are per SERVICE, arbitration is permissionless and mechanical
event BondStaked(uint256 indexed serviceId, address indexed staker, uint128 newTotal)
event WithdrawalRequested(uint256 indexed serviceId, uint64 unlockAt)
event BondWithdrawn(uint256 indexed serviceId, address indexed staker, uint128 amount)
event DisputeOpened(uint256 indexed jobId, address indexed disputer, uint128 bond)
event DisputeFailed(uint256 indexed jobId, address indexed disputer, uint128 toSeller, uint128 toTreasury)
event Slashed(uint256 indexed jobId, address indexed disputer, uint128 sellerBondSlashed, uint128 toDisputer, uint128 toTreasury, uint128 burned)
function MIN_BOND() view returns (uint128)                 // 5 native tokens
function WITHDRAWAL_DELAY() view returns (uint64)          // 7 days
function stakeBond(uint256 serviceId) payable              // the service's registrant
function requestWithdrawal(uint256 serviceId)
function withdrawBond(uint256 serviceId)                   // after the delay, no open disputes
function openDispute(uint256 jobId, address disputer) payable   // escrow only
function arbitrate(uint256 jobId)                          // anyone, once per dispute
function getBond(uint256 serviceId) view returns (uint128 amount, uint64 withdrawableAt)
function getDispute(uint256 jobId) view returns (address disputer, uint128 disputeBond, uint64 openedAt, bool resolved)
function arbitrated(uint256) view returns (bool); function bondPoster(uint256) view returns (address)
function openDisputesByService(uint256) view returns (uint256); function withdrawalUnlockAt(uint256) view returns (uint64)
function escrow() / registry() / verifier() / treasury() view returns (address)
error AlreadyArbitrated(); error BondTooSmall(); error DisputeAlreadyOpen(); error EscrowOnly();
error NoDisputeFound(); error NotBondPoster(); error NotOriginalRegistrant(); error OpenDisputesPending();
error UnknownService(); error WithdrawalAlreadyRequested(); error WithdrawalDelayNotElapsed();
error WithdrawalNotRequested(); error ZeroTreasury();

// attestation verifier
function recover(bytes attestationText, bytes signature) pure returns (address)   // OZ ECDSA.recover of the EIP-191 hash
function verify(bytes attestationText, bytes signature, address expectedSigner) pure returns (bool)
function parseAttestationText(bytes text) pure returns (bytes32 contentHash, bytes32 usageHash,
    string providerType, string providerIdentity, bytes32 tlsCertFingerprint)

// reputation vault (updated by the escrow on every settlement)
event ReputationIncremented(uint256 indexed serviceId, uint128 jobAmount, uint128 buyerWeight, uint128 newWeightedScore)
function getReputation(uint256 serviceId) view returns (Reputation)  // {uint128 totalJobs; uint128 totalVolume; uint128 weightedScore; uint64 firstJobAt; uint64 lastJobAt}
function getBuyerWeight(address buyer) view returns (uint128); function getBuyerTotalVolume(address buyer) view returns (uint128)
`

/** The part of `referenceSpec` under the comment line starting with `// <heading>`, up to the next heading. */
function referenceSection(heading: string): string {
  const headings = ['registry', 'escrow', 'arbiter', 'attestation verifier', 'reputation vault']
  const lines = referenceSpec.split('\n')
  const isHeading = (line: string, name: string): boolean => line.startsWith(`// ${name}`)
  const from = lines.findIndex((line) => isHeading(line, heading))
  if (from === -1) throw new Error(`the reference block has no "${heading}" section`)
  const to = lines.findIndex((line, index) => index > from && headings.some((name) => isHeading(line, name)))
  return lines.slice(from, to === -1 ? undefined : to).join('\n')
}

/** Turns a spec block into human-readable ABI signatures, one declaration per entry. */
function specSignatures(spec: string): string[] {
  const withStructs = spec.replace(
    /returns \((\w+)\)\s*\/\/\s*\{([^}]*)\}/g,
    (_, name: string, fields: string) => `returns (${name})\nstruct ${name} {${fields}}`,
  )
  const declarations = withStructs
    .replace(/\/\/[^\n]*/g, '')
    .replace(/^enum JobState \{[^}]*\}\s*$/m, '')
    .replace(/\bJobState\b/g, 'uint8')
    .split(/\n(?=struct |event |function |error )|;\s+(?=event |function |error )/)
    .map((declaration) => declaration.replace(/\s+/g, ' ').trim().replace(/;$/, ''))
    .filter(Boolean)
  return declarations.flatMap((declaration) => {
    const shared = /^function (\w+\(\)(?: \/ \w+\(\))+) (.*)$/.exec(declaration)
    if (shared === null) return [declaration]
    const [, names, rest] = shared as unknown as [string, string, string]
    return names.split(' / ').map((name) => `function ${name} ${rest}`)
  })
}

/**
 * Keeps what the ABI encoding and viem's decoding depend on: names, types, indexed, components.
 * solc writes `indexed: false` on every event input where human-readable ABI leaves it out.
 */
function shape(parameters: readonly unknown[], { isEvent = false } = {}): unknown[] {
  return parameters.map((parameter) => {
    const { name, type, indexed, components } = parameter as {
      name?: string
      type: string
      indexed?: boolean
      components?: readonly unknown[]
    }
    return {
      name: name ?? '',
      type,
      ...(isEvent ? { indexed: indexed ?? false } : {}),
      ...(components === undefined ? {} : { components: shape(components) }),
    }
  })
}

type AbiError = Extract<Abi[number], { type: 'error' }>

const errorSelector = (error: AbiError): string =>
  toFunctionSelector(`${error.name}(${error.inputs.map((input) => input.type).join(',')})`)

type Case = {
  contract: string
  specAbi: Abi
  compiledAbi: Abi
  /** Whether the spec lists this contract's errors (it does not for the verifier and the vault). */
  specListsErrors: boolean
  /** Functions we have that the spec's list leaves out, each with why. */
  unlisted: Record<string, string>
}

const cases: Case[] = [
  {
    contract: 'registry',
    specAbi: parseAbi([...specSignatures(registrySpec), ...specSignatures(referenceSection('registry'))]) as Abi,
    compiledAbi: registryAbi as Abi,
    specListsErrors: true,
    unlisted: {},
  },
  {
    contract: 'escrow',
    specAbi: parseAbi([...specSignatures(escrowSpec), ...specSignatures(referenceSection('escrow'))]) as Abi,
    compiledAbi: escrowAbi as Abi,
    specListsErrors: true,
    unlisted: {},
  },
  {
    contract: 'arbiter',
    specAbi: parseAbi(specSignatures(referenceSection('arbiter'))) as Abi,
    compiledAbi: arbiterAbi as Abi,
    specListsErrors: true,
    unlisted: {},
  },
  {
    contract: 'attestation verifier',
    specAbi: parseAbi(specSignatures(referenceSection('attestation verifier'))) as Abi,
    compiledAbi: attestationVerifierAbi as Abi,
    specListsErrors: false,
    unlisted: {},
  },
  {
    contract: 'reputation vault',
    specAbi: parseAbi(specSignatures(referenceSection('reputation vault'))) as Abi,
    compiledAbi: reputationVaultAbi as Abi,
    specListsErrors: false,
    unlisted: {
      recordSettlement: 'the escrow calls it on every settlement ("updated by the escrow on every settlement")',
      escrow: 'the only caller recordSettlement accepts',
    },
  },
]

const itemsOf = <type extends 'function' | 'event' | 'error'>(abi: Abi, type: type) =>
  abi.filter((item): item is Extract<Abi[number], { type: type }> => item.type === type)

test('default: the spec blocks parse into every declaration', () => {
  const counts = Object.fromEntries(
    cases.map(({ contract, specAbi }) => [
      contract,
      { functions: itemsOf(specAbi, 'function').length, events: itemsOf(specAbi, 'event').length, errors: itemsOf(specAbi, 'error').length },
    ]),
  )
  expect(counts).toEqual({
    registry: { functions: 8, events: 4, errors: 6 },
    escrow: { functions: 19, events: 6, errors: 18 },
    arbiter: { functions: 17, events: 6, errors: 13 },
    'attestation verifier': { functions: 3, events: 0, errors: 0 },
    'reputation vault': { functions: 3, events: 1, errors: 0 },
  })
})

describe.each(cases)('$contract', ({ specAbi, compiledAbi, specListsErrors, unlisted }) => {
  const specEvents = itemsOf(specAbi, 'event') as AbiEvent[]
  const specFunctions = itemsOf(specAbi, 'function') as AbiFunction[]
  const specErrors = itemsOf(specAbi, 'error') as AbiError[]
  const compiledEvent = (name: string): AbiEvent | undefined =>
    (itemsOf(compiledAbi, 'event') as AbiEvent[]).find((item) => item.name === name)
  const compiledFunction = (name: string): AbiFunction | undefined =>
    (itemsOf(compiledAbi, 'function') as AbiFunction[]).find((item) => item.name === name)

  test.each(specEvents.map((event) => [event.name, event] as const))('event %s: same topic, fields and indexed flags', (name, event) => {
    const compiled = compiledEvent(name)
    expect(compiled, `compiled ABI lacks event ${name}`).toBeDefined()
    expect(toEventSelector(compiled!)).toBe(toEventSelector(event))
    expect(shape(compiled!.inputs, { isEvent: true })).toEqual(shape(event.inputs, { isEvent: true }))
    expect(compiled!.anonymous ?? false).toBe(false)
  })

  test.each(specFunctions.map((fn) => [fn.name, fn] as const))('function %s: same selector, mutability, inputs, outputs', (name, fn) => {
    const compiled = compiledFunction(name)
    expect(compiled, `compiled ABI lacks function ${name}`).toBeDefined()
    expect(toFunctionSelector(compiled!)).toBe(toFunctionSelector(fn))
    expect(compiled!.stateMutability).toBe(fn.stateMutability)
    expect(shape(compiled!.inputs)).toEqual(shape(fn.inputs))
    // Output names are not always part of the spec's signatures (`returns (Service)`); types, struct fields included, are.
    const types = (parameters: readonly unknown[]): unknown =>
      JSON.parse(JSON.stringify(shape(parameters), (key, value) => (key === 'name' ? undefined : value)))
    expect(types(compiled!.outputs)).toEqual(types(fn.outputs))
  })

  test('struct outputs keep the spec’s field order and names', () => {
    for (const fn of specFunctions.filter((item) => item.outputs.some((output) => output.type === 'tuple'))) {
      const [specStruct] = fn.outputs as readonly { components?: readonly unknown[] }[]
      const [compiledStruct] = compiledFunction(fn.name)!.outputs as readonly { type: string; components?: readonly unknown[] }[]
      expect(compiledStruct?.type, fn.name).toBe('tuple')
      expect(shape(compiledStruct?.components ?? []), fn.name).toEqual(shape(specStruct?.components ?? []))
    }
  })

  test.each(specErrors.map((error) => [error.name, error] as const))('error %s: same selector', (name, error) => {
    const compiled = (itemsOf(compiledAbi, 'error') as AbiError[]).find((item) => item.name === name)
    expect(compiled, `compiled ABI lacks error ${name}`).toBeDefined()
    expect(errorSelector(compiled!)).toBe(errorSelector(error))
  })

  test('nothing beyond the spec: every function, event and error we expose is one it lists', () => {
    const names = (abi: Abi, type: 'function' | 'event' | 'error'): string[] =>
      (itemsOf(abi, type) as { name: string }[]).map((item) => item.name).sort()
    expect(names(compiledAbi, 'function')).toEqual([...names(specAbi, 'function'), ...Object.keys(unlisted)].sort())
    expect(names(compiledAbi, 'event')).toEqual(names(specAbi, 'event'))
    if (specListsErrors) expect(names(compiledAbi, 'error')).toEqual(names(specAbi, 'error'))
  })
})

test('the Job struct has 13 fields with state encoded as uint8 at index 7', () => {
  const getJob = (escrowAbi as Abi).find(
    (item): item is AbiFunction => item.type === 'function' && item.name === 'getJob',
  )!
  const components = (getJob.outputs[0] as { components: readonly { name: string; type: string }[] }).components
  expect(components).toHaveLength(13)
  expect(components[7]).toMatchObject({ name: 'state', type: 'uint8' })
})
