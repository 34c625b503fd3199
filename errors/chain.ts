import { TimeoutError } from 'viem'
import { BaseError } from './BaseError.ts'

/** The node refused an `eth_getLogs` range as too wide; the scanner shrinks its window. */
export class LogRangeTooLargeError extends BaseError {
  override name = 'LogRangeTooLargeError'
  /** `refused`: the node said the range (or its answer) is too large; `timeout`: it did not answer in time. */
  readonly reason: 'refused' | 'timeout'
  constructor({ fromBlock, toBlock, reason = 'refused', cause }: { fromBlock: bigint; toBlock: bigint; reason?: 'refused' | 'timeout'; cause?: unknown }) {
    super(
      reason === 'timeout'
        ? `The node did not answer the log range "${fromBlock}-${toBlock}" in time.`
        : `The node rejected the log range "${fromBlock}-${toBlock}" as too large.`,
      { code: 'log_range_too_large', cause },
    )
    this.reason = reason
  }
}

/** What the node answered changed under us (a reorg while a window was being read). */
export class ChainChangedError extends BaseError {
  override name = 'ChainChangedError'
  constructor({ blockNumber }: { blockNumber: bigint }) {
    super(`Block "${blockNumber}" changed while it was being indexed.`, { code: 'chain_changed' })
  }
}

export class BlockByTimestampNotFoundError extends BaseError {
  override name = 'BlockByTimestampNotFoundError'
  constructor({ timestamp }: { timestamp: bigint }) {
    super(`No block has a timestamp at or after "${timestamp}" yet.`, { code: 'block_not_found' })
  }
}

export class ChainIdMismatchError extends BaseError {
  override name = 'ChainIdMismatchError'
  constructor({ expected, actual }: { expected: number; actual: number }) {
    super(`The node serves chain "${actual}", but the configuration expects chain "${expected}".`, {
      code: 'chain_id_mismatch',
    })
  }
}

/** The new-heads subscription could not be made or was lost; the indexer polls meanwhile and reconnects. */
export class NewHeadsError extends BaseError {
  override name = 'NewHeadsError'
  constructor({ endpoint, reason, cause }: { endpoint: string; reason: string; cause?: unknown }) {
    super(`The new-heads subscription at "${endpoint}" failed: ${reason}.`, { code: 'new_heads_failed', cause })
  }
}

type LogPosition = { blockNumber: string | bigint | null; blockHash: string | null; transactionHash: string | null; logIndex: string | number | null; address: string }

function describeLog({ blockNumber, transactionHash, logIndex, address }: LogPosition): string {
  const number = (value: string | number | bigint | null): string =>
    value === null ? 'unknown' : typeof value === 'string' && value.startsWith('0x') ? BigInt(value).toString() : String(value)
  return `log ${number(logIndex)} of transaction "${transactionHash ?? 'unknown'}" in block ${number(blockNumber)} (contract ${address})`
}

/**
 * A log of an event we index that does not decode against its ABI: the window that holds it is
 * not applied (skipping it would lose a job or a change), and it is read again.
 */
export class UndecodableLogError extends BaseError {
  override name = 'UndecodableLogError'
  readonly blockNumber: bigint | undefined
  readonly transactionHash: string | undefined
  constructor({ log, reason }: { log: LogPosition; reason: string }) {
    super(`The node answered a ${describeLog(log)} that does not decode: ${reason}.`, { code: 'undecodable_log' })
    this.blockNumber = log.blockNumber === null ? undefined : BigInt(log.blockNumber)
    this.transactionHash = log.transactionHash ?? undefined
  }
}

/** The node answered a log outside the filter (another address, event or block range): its answer cannot be trusted. */
export class UnrequestedLogError extends BaseError {
  override name = 'UnrequestedLogError'
  constructor({ log, fromBlock, toBlock }: { log: LogPosition; fromBlock: bigint; toBlock: bigint }) {
    super(`The node answered a ${describeLog(log)} that the filter for blocks ${fromBlock}-${toBlock} did not ask for.`, {
      code: 'unrequested_log',
    })
  }
}

/**
 * The node's `eth_getLogs` answer for a window is missing logs the chain holds (an empty or partial
 * answer, typically from a node behind its load balancer): the window is not applied and is read again.
 */
export class IncompleteLogsError extends BaseError {
  override name = 'IncompleteLogsError'
  constructor({ fromBlock, toBlock, reason }: { fromBlock: bigint; toBlock: bigint; reason: string }) {
    super(`The node's logs for blocks ${fromBlock}-${toBlock} are incomplete: ${reason}.`, { code: 'incomplete_logs' })
  }
}

/**
 * Creation events the contract's ids say exist are not in the logs read: ids `fromId` to `toId`
 * were handed out, before `toBlock` and after the creation of id `fromId - 1` (the first indexed
 * block, when no earlier creation is held). The scan reads again from there.
 */
export class MissingCreationsError extends IncompleteLogsError {
  override name = 'MissingCreationsError'
  readonly kind: 'service' | 'job'
  readonly fromId: bigint
  constructor({ kind, fromId, toId, fromBlock, toBlock }: { kind: 'service' | 'job'; fromId: bigint; toId: bigint; fromBlock: bigint; toBlock: bigint }) {
    super({
      fromBlock,
      toBlock,
      reason: `${kind}s ${fromId === toId ? fromId : `${fromId} to ${toId}`} were created by block ${toBlock}, but their creation events are missing from the answers (here or in an earlier window)`,
    })
    this.kind = kind
    this.fromId = fromId
  }
}

/** The RPC node did not answer within the start-up wait. */
export class NodeUnreachableError extends BaseError {
  override name = 'NodeUnreachableError'
  constructor({ url, waitedMs, reason, cause }: { url: string; waitedMs: number; reason: string; cause?: unknown }) {
    super(`The RPC node at "${url}" did not answer within ${waitedMs / 1000} s: ${reason}.`, { code: 'node_unreachable', cause })
  }
}

/**
 * A node that answered "slow down" is not asked again until the wait it asked for is over: while
 * other nodes are configured, a call meanwhile is refused at once so that the next node takes it.
 */
export class NodeCoolingDownError extends BaseError {
  override name = 'NodeCoolingDownError'
  constructor({ url, waitMs, cause }: { url: string; waitMs: number; cause: unknown }) {
    super(`The RPC node at "${url}" asked us to slow down; it is asked again in ${Math.ceil(waitMs)} ms.`, {
      code: 'node_cooling_down',
      cause,
    })
  }
}

/** The node serves another chain than the configured one, found at start-up. */
export class WrongChainError extends BaseError {
  override name = 'WrongChainError'
  constructor({ url, expected, actual }: { url: string; expected: number; actual: number }) {
    super(`The RPC node at "${url}" serves chain ${actual}, but the configuration expects chain ${expected} (check --rpc-url and --chain-id).`, {
      code: 'chain_id_mismatch',
    })
  }
}

/** A configured contract address holds no code on the node's chain. */
export class ContractNotDeployedError extends BaseError {
  override name = 'ContractNotDeployedError'
  constructor({ url, contract, address }: { url: string; contract: string; address: string }) {
    super(`The ${contract} address ${address} holds no contract on the chain at "${url}" (check --${contract} and --rpc-url).`, {
      code: 'contract_not_deployed',
    })
  }
}

/**
 * A node that did not finish its answer (headers and the whole body) within the request's
 * deadline. It is viem's TimeoutError, not our BaseError, on purpose: viem's HTTP client passes a
 * TimeoutError through as it is (anything else it wraps as an HttpRequestError), its `fallback`
 * hands the call to the next node, and classifyRpcError reads it as a timeout.
 */
export class RpcDeadlineError extends TimeoutError {
  override name = 'RpcDeadlineError'
  readonly code = 'rpc_deadline'
  /** The node, without credentials. */
  readonly node: string
  readonly timeoutMs: number
  /** The JSON-RPC methods of the request (one, or a batch's, deduplicated). */
  readonly methods: readonly string[]

  constructor({ node, body, methods, timeoutMs, received }: { node: string; body: RpcDeadlineBody; methods: readonly string[]; timeoutMs: number; received: 'nothing' | 'headers' }) {
    super({ body, url: node })
    this.node = node
    this.timeoutMs = timeoutMs
    this.methods = methods
    this.shortMessage = `The RPC node at "${node}" did not finish its answer to ${methods.join(', ') || 'a request'} within ${timeoutMs / 1000} s (${received === 'nothing' ? 'no answer' : 'status and headers came, the body stopped'}).`
    this.message = this.message.replace('The request took too long to respond.', this.shortMessage)
  }
}

type RpcDeadlineBody = ConstructorParameters<typeof TimeoutError>[0]['body']

/** A poll whose requests to the node settled none for too long: it is abandoned and retried, so the loop goes on. */
export class PollStalledError extends BaseError {
  override name = 'PollStalledError'
  constructor({ stallMs }: { stallMs: number }) {
    super(`The poll had no answer from any node for ${stallMs / 1000} s; it is abandoned and retried.`, { code: 'poll_stalled' })
  }
}
