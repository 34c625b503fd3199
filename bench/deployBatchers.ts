import { type Address, encodeFunctionData, getAddress, parseAbi } from 'viem'
import { BenchSetupError } from '../errors/bench.ts'
import { compileBatcher } from './compileBatcher.ts'
import type { BenchTransaction, TransactionSender } from './createTransactionSender.ts'

export type DeployBatchersParameters = {
  /** Each gets a batcher of its own, which only it may drive. */
  owners: readonly Address[]
}

export type BenchBatchers = {
  /** The batcher of an owner account. */
  of: (owner: Address) => Address
  /** A transaction of `owner` making `calls` to `target` through its batcher, as the batcher. */
  batch: (owner: Address, { target, calls }: BatchParameters) => BenchTransaction
}

export type BatchParameters = {
  target: Address
  calls: readonly { data: `0x${string}`; value?: bigint; gas: bigint }[]
}

export type DeployBatchersReturnType = BenchBatchers

const batcherAbi = parseAbi(['function run(address target, bytes[] calls, uint256[] values) payable'])
/** The loop and the calls' overhead, beyond what the calls themselves are given. */
const batchOverheadGas = 200_000n

/** Deploys a BenchBatcher for each owner (see bench/contracts/BenchBatcher.sol). */
export async function deployBatchers(sender: TransactionSender, { owners }: DeployBatchersParameters): Promise<DeployBatchersReturnType> {
  const { bytecode } = compileBatcher()
  const { receipts } = await sender.sendInBlocks({
    items: owners,
    // No `to`: a contract creation.
    build: (owner) => ({ from: owner, to: undefined, data: bytecode, gas: 1_000_000n }),
  })
  const batchers = new Map<Address, Address>()
  receipts.forEach((receipt, index) => {
    if (receipt.contractAddress == null) throw new BenchSetupError(`Deploying the batcher of ${owners[index]} created no contract.`)
    batchers.set(owners[index] as Address, getAddress(receipt.contractAddress))
  })
  const of = (owner: Address): Address => {
    const batcher = batchers.get(owner)
    if (batcher === undefined) throw new BenchSetupError(`${owner} has no batcher.`)
    return batcher
  }
  return {
    of,
    batch: (owner, { target, calls }) => ({
      from: owner,
      to: of(owner),
      value: calls.reduce((sum, { value = 0n }) => sum + value, 0n),
      gas: calls.reduce((sum, { gas }) => sum + gas, batchOverheadGas),
      data: encodeRun(target, calls),
    }),
  }
}

function encodeRun(target: Address, calls: BatchParameters['calls']): `0x${string}` {
  return encodeFunctionData({
    abi: batcherAbi,
    functionName: 'run',
    args: [target, calls.map(({ data }) => data), calls.map(({ value = 0n }) => value)],
  })
}
