import {
  type Address,
  BaseError as ViemBaseError,
  ContractFunctionRevertedError,
  InsufficientFundsError,
  type PrivateKeyAccount,
  type Client,
  type TransactionSerializable,
  encodeFunctionData,
  parseEther,
  toHex,
} from 'viem'
import { estimateContractGas, getBalance, prepareTransactionRequest } from 'viem/actions'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { CreateJobWouldRevertError, InsufficientBalanceError } from '../../errors/run.ts'

/** The document's floor for a buyer wallet, whatever the service costs. */
const minimumBuyerBalance = parseEther('0.005')

export type PrepareCreateJobParameters = {
  account: PrivateKeyAccount
  escrow: Address
  serviceId: bigint
  price: bigint
  /** The job input (the prompt's UTF-8 bytes). */
  input: Uint8Array
  /** Escrow timeout: a duration in seconds. */
  timeoutSec: number
}

export type PrepareCreateJobReturnType = {
  /** Fully filled (nonce, gas, fees, chainId): ready to sign and send once. */
  request: TransactionSerializable
  balance: bigint
}

/**
 * Builds the `createJob` transaction and refuses, before anything is sent, when the wallet
 * cannot pay the 0.005 floor, the price, or the price plus the estimated gas.
 */
export async function prepareCreateJob(
  client: Client,
  { account, escrow, serviceId, price, input, timeoutSec }: PrepareCreateJobParameters,
): Promise<PrepareCreateJobReturnType> {
  const buyer = account.address
  const balance = await getBalance(client, { address: buyer })
  if (balance < minimumBuyerBalance) {
    throw new InsufficientBalanceError({
      buyer,
      balance,
      required: minimumBuyerBalance,
      reason: 'the minimum buyer balance of 0.005 native token',
    })
  }
  if (balance < price) {
    throw new InsufficientBalanceError({ buyer, balance, required: price, reason: 'the service price' })
  }

  const args = [serviceId, toHex(input), BigInt(timeoutSec)] as const
  let gas: bigint
  try {
    gas = await estimateContractGas(client, {
      account,
      address: escrow,
      abi: escrowAbi,
      functionName: 'createJob',
      args,
      value: price,
    })
  } catch (error) {
    throw toPreflightError(error, { buyer, balance, serviceId })
  }
  const request = (await prepareTransactionRequest(client, {
    account,
    chain: client.chain,
    to: escrow,
    data: encodeFunctionData({ abi: escrowAbi, functionName: 'createJob', args }),
    value: price,
    gas,
  })) as TransactionSerializable

  const feePerGas = request.maxFeePerGas ?? request.gasPrice ?? 0n
  const required = price + gas * feePerGas
  if (balance < required) {
    throw new InsufficientBalanceError({ buyer, balance, required, reason: 'the service price plus estimated gas' })
  }
  return { request, balance }
}

function toPreflightError(
  error: unknown,
  { buyer, balance, serviceId }: { buyer: Address; balance: bigint; serviceId: bigint },
): Error {
  if (!(error instanceof ViemBaseError)) return error instanceof Error ? error : new Error(String(error))
  if (error.walk((cause) => cause instanceof InsufficientFundsError)) {
    return new InsufficientBalanceError({ buyer, balance, required: null, reason: 'the service price plus gas' })
  }
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError)
  if (reverted instanceof ContractFunctionRevertedError) {
    return new CreateJobWouldRevertError({
      serviceId,
      reason: reverted.data?.errorName ?? reverted.reason ?? 'no reason given',
      cause: error,
    })
  }
  return error
}
