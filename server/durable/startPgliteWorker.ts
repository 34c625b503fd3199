import { Worker } from 'node:worker_threads'
import { EmbeddedDatabaseError } from '../../errors/durable.ts'
import type { PgliteRequest, PgliteResponse, PgliteWorkerData } from './pgliteWorkerProtocol.ts'

type Request = PgliteRequest extends infer request ? (request extends PgliteRequest ? Omit<request, 'id'> : never) : never

export type PgliteWorker = {
  /** Sends one request; resolves with its rows (a query's) once the worker answers it. */
  ask(request: Request): Promise<never>
  /** Calls `onNotify` for each NOTIFY on `channel`; the returned function stops it, true when it was the channel's last. */
  onNotification(channel: string, onNotify: (payload: string) => void): () => boolean
  terminate(): Promise<void>
}

/**
 * The worker's module beside this one: the TypeScript source when this runs from source (a worker
 * thread gets none of the main thread's module hooks, so it registers tsx first), the bundled
 * file beside the bundle when it runs from `dist/` (tsup builds it as an entry of its own).
 */
function createWorker(workerData: PgliteWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./pgliteWorker.js', import.meta.url), { workerData })
  const entry = new URL('./pgliteWorker.ts', import.meta.url).href
  const tsx = import.meta.resolve('tsx/esm/api')
  const source = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry)})`
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData })
}

/** Starts the thread that owns the PGlite at `path` and resolves once it has opened it. */
export async function startPgliteWorker({ where, path }: { where: string; path: string }): Promise<PgliteWorker> {
  const worker = createWorker({ path })
  const pending = new Map<number, { resolve: (rows: never) => void; reject: (error: Error) => void }>()
  const listeners = new Map<string, Set<(payload: string) => void>>()
  let nextId = 0
  let stopped: Error | undefined
  const stop = (error: Error): void => {
    stopped ??= error
    for (const { reject } of pending.values()) reject(stopped)
    pending.clear()
  }
  const opened = new Promise<void>((resolve, reject) => {
    worker.on('message', (response: PgliteResponse) => {
      switch (response.type) {
        case 'opened':
          return resolve()
        case 'done':
          pending.get(response.id)?.resolve(response.rows as never)
          return void pending.delete(response.id)
        case 'failed': {
          const error = new EmbeddedDatabaseError({ where, message: response.message, sqlState: response.code })
          if (response.id === undefined) return reject(error)
          pending.get(response.id)?.reject(error)
          return void pending.delete(response.id)
        }
        case 'notification':
          for (const onNotify of listeners.get(response.channel) ?? []) onNotify(response.payload)
      }
    })
    worker.on('error', (cause) => {
      const error = new EmbeddedDatabaseError({ where, message: `its thread failed: ${cause.message}` })
      reject(error)
      stop(error)
    })
    worker.on('exit', (code) => {
      const error = new EmbeddedDatabaseError({ where, message: `its thread stopped (exit code ${code})` })
      reject(error)
      stop(error)
    })
  })
  await opened
  return {
    ask: (request) => {
      if (stopped !== undefined) return Promise.reject(stopped)
      const id = nextId++
      return new Promise<never>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        worker.postMessage({ ...request, id } satisfies PgliteRequest)
      })
    },
    onNotification: (channel, onNotify) => {
      const channelListeners = listeners.get(channel) ?? new Set()
      listeners.set(channel, channelListeners)
      channelListeners.add(onNotify)
      return () => {
        channelListeners.delete(onNotify)
        return channelListeners.size === 0
      }
    },
    terminate: async () => {
      await worker.terminate()
    },
  }
}
