import type { JsonRpcRequest } from './jsonRpc.ts'

/** A block tag, number or hash as given, or EIP-1898's object. */
export type StateBlockParameter = string | { blockNumber?: string; blockHash?: string; requireCanonical?: boolean }

/** Position of the block parameter of the methods that execute against, or read, an account state. */
const blockParameterIndex: Record<string, number> = {
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
}

/** The block whose state `request` reads ("latest" when it names none), or undefined when it reads no state. */
export function readStateBlockParameter(request: JsonRpcRequest): StateBlockParameter | undefined {
  const index = blockParameterIndex[request.method]
  if (index === undefined) return undefined
  return (request.params?.[index] as StateBlockParameter | undefined) ?? 'latest'
}
