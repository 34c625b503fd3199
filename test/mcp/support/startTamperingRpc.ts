import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
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

export type StartTamperingRpcParameters = {
  /** The real node. */
  target: string
  escrow: Address
  /** Rewrites what `getJob(jobId)` returns; `undefined` passes the answer through. */
  tamper: (jobId: bigint, job: JobStruct) => JobStruct | undefined
}

export type TamperingRpc = { url: string; stop: () => Promise<void> }

type JsonRpcRequest = { id: unknown; method: string; params?: unknown[] }
type JsonRpcResponse = { id: unknown; result?: unknown; error?: unknown }

const getJobSelector = toFunctionSelector('getJob(uint256)')

/**
 * A JSON-RPC proxy that forwards everything to the node but rewrites the escrow's `getJob`
 * answers: a node (or a man in the middle) lying about a job's attestation bytes. Local
 * verification must catch it, since it trusts only the signature math.
 */
export async function startTamperingRpc({ target, escrow, tamper }: StartTamperingRpcParameters): Promise<TamperingRpc> {
  const server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as JsonRpcRequest | JsonRpcRequest[]
    const forwarded = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const answer = (await forwarded.json()) as JsonRpcResponse | JsonRpcResponse[]
    const requests = Array.isArray(body) ? body : [body]
    const answers = Array.isArray(answer) ? answer : [answer]
    for (const item of answers) {
      const call = requests.find((candidate) => candidate.id === item.id)
      const rewritten = call === undefined ? undefined : rewrite(call, item)
      if (rewritten !== undefined) item.result = rewritten
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
  })

  const rewrite = (call: JsonRpcRequest, item: JsonRpcResponse): Hex | undefined => {
    if (call.method !== 'eth_call' || typeof item.result !== 'string') return undefined
    const [transaction] = (call.params ?? []) as [{ to?: Address; data?: Hex; input?: Hex }?]
    const data = transaction?.data ?? transaction?.input
    if (transaction?.to === undefined || data === undefined || !data.startsWith(getJobSelector)) return undefined
    if (!isAddressEqual(transaction.to, escrow)) return undefined
    const { args } = decodeFunctionData({ abi: escrowAbi, data })
    const jobId = args[0] as bigint
    const job = decodeFunctionResult({ abi: escrowAbi, functionName: 'getJob', data: item.result as Hex })
    const tampered = tamper(jobId, job)
    return tampered === undefined
      ? undefined
      : encodeFunctionResult({ abi: escrowAbi, functionName: 'getJob', result: tampered })
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
