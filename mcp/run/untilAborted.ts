/**
 * The promise's outcome, or the signal's reason as soon as it aborts, whichever comes first: a
 * wait on the node that the caller cancels ends then, not when the node answers. What the promise
 * was doing goes on unobserved (its own deadline ends it).
 */
export function untilAborted<value>(promise: Promise<value>, signal: AbortSignal | undefined): Promise<value> {
  if (signal === undefined) return promise
  if (signal.aborted) {
    promise.catch(() => undefined)
    return Promise.reject(signal.reason as Error)
  }
  return new Promise<value>((resolve, reject) => {
    const abort = (): void => reject(signal.reason as Error)
    signal.addEventListener('abort', abort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}
