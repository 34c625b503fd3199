import {
  decodeFunctionResult,
  getAbiItem,
  toFunctionSelector,
  type Abi,
  type AbiFunction,
  type Address,
  type Client,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  type Hex,
} from 'viem'
import { call, readContract } from 'viem/actions'
import { setImmediate } from 'node:timers/promises'
import { classifyRpcError } from '../rpc/classifyRpcError.ts'
import { readByIdsCode } from './readByIdsCode.ts'

/** View functions of `abi` taking one `uint256`: the only shape the reader code can call. */
export type IdFunctionName<abi extends Abi> = {
  [name in ContractFunctionName<abi, 'view'>]: ContractFunctionArgs<abi, 'view', name> extends readonly [bigint] ? name : never
}[ContractFunctionName<abi, 'view'>]

export type ReadByIdsParameters<abi extends Abi, functionName extends IdFunctionName<abi>> = {
  address: Address
  abi: abi
  functionName: functionName
  ids: readonly bigint[]
  /**
   * Ids per `eth_call`. What one call returns becomes code, capped at 24,576 bytes (EIP-170): the
   * caller sizes this from its record's encoded size, with room for longer dynamic fields.
   */
  idsPerCall: number
  /** Block whose state is read (default: the latest), so that records of one read agree with each other. */
  blockNumber?: bigint | undefined
}
export type ReadByIdsReturnType<abi extends Abi, functionName extends IdFunctionName<abi>> = ContractFunctionReturnType<
  abi,
  'view',
  functionName
>[]

/**
 * `eth_call`s issued together, so a batching transport sends each wave as one JSON-RPC batch.
 * Waves keep what is in flight bounded: a back-fill window touching 30,000 jobs, issued at once,
 * queued so long at a local node that requests timed out and the window was read again and again.
 * Two waves in flight, each sent on its own: the node computes one while the last one is decoded.
 */
const callsPerWave = 10
const wavesInFlight = 2

/**
 * Records decoded in one turn of the event loop: decoding a job's return data costs ~50 µs once
 * optimized and several times that before, and a wave of 240 jobs decoded at once held requests
 * 12–80 ms.
 */
const decodedPerTurn = 50

/**
 * Calls `functionName(id)` for every id, in the order given, `idsPerCall` ids per `eth_call`
 * through the creation code of `readByIdsCode` (no contract needs to be deployed). A lone id is a
 * plain call. A call the node refuses or finds too large (see classifyRpcError: too much returned,
 * over its gas cap) is split in two and retried, down to plain calls; an id whose own call failed
 * is read again with a plain call. So what reaches the caller is what `readContract` would have
 * thrown for that id (an unknown id's revert, a transport failure), never a batching artefact.
 */
export async function readByIds<const abi extends Abi, functionName extends IdFunctionName<abi>>(
  client: Client,
  { address, abi, functionName, ids, idsPerCall, blockNumber }: ReadByIdsParameters<abi, functionName>,
): Promise<ReadByIdsReturnType<abi, functionName>> {
  type Result = ReadByIdsReturnType<abi, functionName>[number]
  /** What a call answered for one id: its return data, decoded later in turns of its own, or the record read on its own. */
  type Answer = { id: bigint; data: Hex } | { result: Result }
  const abiItem = getAbiItem({ abi: abi as Abi, name: functionName as string }) as AbiFunction
  const prefix = `${readByIdsCode}${toFunctionSelector(abiItem).slice(2)}${address.slice(2).toLowerCase()}`

  const readOne = (id: bigint): Promise<Result> =>
    readContract(client, { address, abi: abi as Abi, functionName, args: [id], blockNumber }) as Promise<Result>

  const readMany = async (group: readonly bigint[]): Promise<Answer[]> => {
    if (group.length === 1) return [{ result: await readOne(group[0] as bigint) }]
    let returned: Hex | undefined
    try {
      returned = (await call(client, { data: `${prefix}${group.map(toWord).join('')}` as Hex, blockNumber })).data
    } catch (error) {
      // Rate limits and transport failures propagate to the caller's backoff: smaller calls would add load.
      const kind = classifyRpcError(error)
      if (kind !== 'refused' && kind !== 'too-large') throw error
      const half = Math.ceil(group.length / 2)
      const [first, second] = await Promise.all([readMany(group.slice(0, half)), readMany(group.slice(half))])
      return [...first, ...second]
    }
    const items = splitReturned(returned ?? '0x', group.length)
    // A node that answers a creation call with something else: read each id on its own.
    if (items === undefined) return Promise.all(group.map(async (id) => ({ result: await readOne(id) })))
    return Promise.all(
      items.map(async (item, index) => {
        const id = group[index] as bigint
        return item === undefined ? { result: await readOne(id) } : { id, data: item }
      }),
    )
  }

  const decodeOrReadOne = async (id: bigint, data: Hex): Promise<Result> => {
    try {
      return decodeFunctionResult({ abi: abi as Abi, functionName: functionName as string, data }) as Result
    } catch {
      // So the caller gets readContract's own error for this id.
      return readOne(id)
    }
  }

  const results: Result[] = []
  let decoded = 0
  // The answers of a wave arrive together: decoded here one by one, a turn of the event loop apart every `decodedPerTurn`.
  const collect = async (wave: Promise<Answer[][]>): Promise<void> => {
    for (const part of await wave) {
      for (const answer of part) {
        if ('result' in answer) {
          results.push(answer.result)
          continue
        }
        decoded += 1
        if (decoded % decodedPerTurn === 0) await setImmediate()
        results.push(await decodeOrReadOne(answer.id, answer.data))
      }
    }
  }
  const waves = chunk(chunk(ids, idsPerCall), callsPerWave)
  const inFlight: Promise<Answer[][]>[] = []
  for (const [index, calls] of waves.entries()) {
    if (inFlight.length === wavesInFlight) await collect(inFlight.shift() as Promise<Answer[][]>)
    const wave = Promise.all(calls.map(readMany))
    // Awaited in turn below; until then a rejection must not count as unhandled.
    wave.catch(() => undefined)
    inFlight.push(wave)
    // Let the batching transport send this wave before the next is issued, so they are two requests.
    if (index + 1 < waves.length && inFlight.length < wavesInFlight) await new Promise((resolve) => setTimeout(resolve))
  }
  for (const wave of inFlight) await collect(wave)
  return results
}

function toWord(id: bigint): string {
  return id.toString(16).padStart(64, '0')
}

function chunk<item>(items: readonly item[], size: number): item[][] {
  const chunks: item[][] = []
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size))
  return chunks
}

/** Bit 255 (failed) and a length that fits in 64 bits; anything else is not the reader's answer. */
const entryHead = /^[08]0{47}[0-9a-f]{16}$/

/**
 * The return data of each call in `returned` (see readByIdsCode), or undefined in place of a call
 * that failed; undefined for the whole when it does not hold exactly `count` well-formed entries.
 */
function splitReturned(returned: Hex, count: number): (Hex | undefined)[] | undefined {
  const items: (Hex | undefined)[] = []
  let position = 2
  while (position < returned.length) {
    const head = returned.slice(position, position + 64)
    if (!entryHead.test(head)) return undefined
    const size = Number.parseInt(head.slice(48), 16)
    const failed = head.startsWith('8')
    position += 64
    const end = position + size * 2
    if (end > returned.length) return undefined
    items.push(failed ? undefined : `0x${returned.slice(position, end)}`)
    position = end
  }
  return items.length === count ? items : undefined
}
