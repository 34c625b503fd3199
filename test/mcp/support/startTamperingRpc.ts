import {
  type Address,
  type Hex,
  decodeFunctionData,
  decodeFunctionResult,
  encodeFunctionResult,
  isAddressEqual,
  toFunctionSelector,
} from 'viem'
import { escrowAbi } from '../../../chain/abi/escrow.ts'
import type { JobStruct } from '../../../chain/mappers/toJob.ts'
import { type InterceptingRpc, startInterceptingRpc } from './startInterceptingRpc.ts'

export type StartTamperingRpcParameters = {
  /** The real node. */
  target: string
  escrow: Address
  /** Rewrites what `getJob(jobId)` returns; `undefined` passes the answer through. */
  tamper: (jobId: bigint, job: JobStruct) => JobStruct | undefined
}

const getJobSelector = toFunctionSelector('getJob(uint256)')

/**
 * A node (or a man in the middle) lying about jobs: forwards everything but rewrites the
 * escrow's `getJob` answers. Local verification must catch it: it trusts only signature math.
 */
export function startTamperingRpc({ target, escrow, tamper }: StartTamperingRpcParameters): Promise<InterceptingRpc> {
  return startInterceptingRpc({
    target,
    async intercept(request, forward) {
      const answer = await forward()
      const [call] = (request.params ?? []) as [{ to?: Address; data?: Hex; input?: Hex }?]
      const data = call?.data ?? call?.input
      if (request.method !== 'eth_call' || typeof answer.result !== 'string') return answer
      if (call?.to === undefined || data === undefined || !data.startsWith(getJobSelector)) return answer
      if (!isAddressEqual(call.to, escrow)) return answer
      const { args } = decodeFunctionData({ abi: escrowAbi, data })
      const job = decodeFunctionResult({ abi: escrowAbi, functionName: 'getJob', data: answer.result as Hex })
      const tampered = tamper(args[0] as bigint, job)
      return tampered === undefined
        ? answer
        : { ...answer, result: encodeFunctionResult({ abi: escrowAbi, functionName: 'getJob', result: tampered }) }
    },
  })
}
