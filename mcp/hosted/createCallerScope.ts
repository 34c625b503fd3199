import { AsyncLocalStorage } from 'node:async_hooks'

/** The address of the client whose MCP request is being answered, wherever in its calls the code is. */
export type CallerScope = {
  /** Runs `answer` with `address` as the caller of everything it starts. */
  run: <T>(address: string, answer: () => T) => T
  /** The caller of the request being answered; undefined outside one. */
  current: () => string | undefined
}

export type CreateCallerScopeReturnType = CallerScope

/**
 * The hosted server's caller, carried through the SDK's transport and protocol server to the
 * tools' reads (AsyncLocalStorage): the REST indexer it reads counts each caller against its own
 * limit (X-Forwarded-For, see createIndexerSource) rather than this server as one client. The SDK
 * gives a tool no way to see the HTTP request it came in on.
 */
export function createCallerScope(): CreateCallerScopeReturnType {
  const storage = new AsyncLocalStorage<string>()
  return {
    run: (address, answer) => storage.run(address, answer),
    current: () => storage.getStore(),
  }
}
