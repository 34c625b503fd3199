/**
 * How long the indexer waits for one JSON-RPC answer unless told otherwise. Tests that are not
 * about timeouts take it too, so a slow test node gets the time a slow real node gets.
 */
export const defaultRpcTimeoutMs = 10_000
