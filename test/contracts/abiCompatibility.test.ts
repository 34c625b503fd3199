import { type Abi, type AbiEvent, type AbiFunction, parseAbi, toEventSelector, toFunctionSelector } from 'viem'
import { describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'

/*
 * The reference ABI, copied literally from shared/spec/chain-interface.md. The only rewrite done
 * below before parsing: comments are dropped, a declaration wrapped over two lines is joined, and
 * the `JobState` enum (which human-readable ABI cannot express) becomes the uint8 it encodes to.
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

/** Turns a spec block into human-readable ABI signatures, one declaration per entry. */
function specSignatures(spec: string): string[] {
  const declarations = spec
    .replace(/\/\/[^\n]*/g, '')
    .replace(/^enum JobState \{[^}]*\}\s*$/m, '')
    .replace(/\bJobState\b/g, 'uint8')
    .split(/\n(?=struct |event |function )/)
  return declarations.map((declaration) => declaration.replace(/\s+/g, ' ').trim()).filter(Boolean)
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

const cases = [
  { contract: 'registry', specAbi: parseAbi(specSignatures(registrySpec)) as Abi, compiledAbi: registryAbi as Abi },
  { contract: 'escrow', specAbi: parseAbi(specSignatures(escrowSpec)) as Abi, compiledAbi: escrowAbi as Abi },
]

test('default: the spec blocks parse into every declaration', () => {
  const [registry, escrow] = cases
  expect(registry?.specAbi.filter((item) => item.type === 'event')).toHaveLength(4)
  expect(registry?.specAbi.filter((item) => item.type === 'function')).toHaveLength(7)
  expect(escrow?.specAbi.filter((item) => item.type === 'event')).toHaveLength(6)
  expect(escrow?.specAbi.filter((item) => item.type === 'function')).toHaveLength(7)
})

describe.each(cases)('$contract', ({ specAbi, compiledAbi }) => {
  const specEvents = specAbi.filter((item): item is AbiEvent => item.type === 'event')
  const specFunctions = specAbi.filter((item): item is AbiFunction => item.type === 'function')
  const compiledEvent = (name: string): AbiEvent | undefined =>
    compiledAbi.find((item): item is AbiEvent => item.type === 'event' && item.name === name)
  const compiledFunction = (name: string): AbiFunction | undefined =>
    compiledAbi.find((item): item is AbiFunction => item.type === 'function' && item.name === name)

  test.each(specEvents.map((event) => [event.name, event] as const))('event %s: same topic and fields', (name, event) => {
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
    // Output names are not part of the spec's signatures (`returns (Service)`), types are.
    const types = (parameters: readonly unknown[]): unknown =>
      JSON.parse(JSON.stringify(shape(parameters), (key, value) => (key === 'name' ? undefined : value)))
    expect(types(compiled!.outputs)).toEqual(types(fn.outputs))
  })

  test('struct components keep the spec order and names', () => {
    const getter = specFunctions.find((fn) => fn.name === 'getService' || fn.name === 'getJob')!
    const compiled = compiledFunction(getter.name)!
    const [specStruct] = getter.outputs as readonly { components?: readonly unknown[] }[]
    const [compiledStruct] = compiled.outputs as readonly { type: string; components?: readonly unknown[] }[]
    expect(compiledStruct?.type).toBe('tuple')
    expect(shape(compiledStruct?.components ?? [])).toEqual(shape(specStruct?.components ?? []))
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
