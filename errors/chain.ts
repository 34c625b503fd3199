import { BaseError } from './BaseError.ts'

/** The node refused an `eth_getLogs` range as too wide; the scanner shrinks its window. */
export class LogRangeTooLargeError extends BaseError {
  override name = 'LogRangeTooLargeError'
  constructor({ fromBlock, toBlock, cause }: { fromBlock: bigint; toBlock: bigint; cause?: unknown }) {
    super(`The node rejected the log range "${fromBlock}-${toBlock}" as too large.`, {
      code: 'log_range_too_large',
      cause,
    })
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
