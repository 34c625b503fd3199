import type { Database, Query } from './Database.ts'

/**
 * A database session's statements one at a time, over `send` (the driver's own query on that
 * session): a transaction's statements are never interleaved with another caller's, and each
 * transaction commits only if all of its work succeeded. Inside a transaction the work may issue
 * its next statement before it is done with the last one's rows (a load reads its next page while
 * it applies one); the driver answers them in order.
 */
export function createSessionQueue(send: Query): Pick<Database, 'query' | 'transaction'> {
  let queue: Promise<void> = Promise.resolve()
  const enqueue = <result>(work: () => Promise<result>): Promise<result> => {
    const result = queue.then(work)
    queue = settled(result)
    return result
  }
  return {
    query: ((sql: string, parameters?: readonly unknown[], options?: { rowMode: 'array' }) =>
      enqueue(() => send(sql, parameters ?? [], options as { rowMode: 'array' }))) as Query,
    transaction: (work) =>
      enqueue(async () => {
        await send('BEGIN')
        try {
          const value = await work(send)
          await send('COMMIT')
          return value
        } catch (error) {
          await send('ROLLBACK').catch(() => undefined)
          throw error
        }
      }),
  }
}

/**
 * What the next statement waits for: that `result` is done, without holding its value. Keeping
 * the value (as `result.catch()` would) kept a load's every row alive until the next statement,
 * about 1.7 KB of heap per job on a replica at rest.
 */
function settled(result: Promise<unknown>): Promise<void> {
  return result.then(
    () => undefined,
    () => undefined,
  )
}
