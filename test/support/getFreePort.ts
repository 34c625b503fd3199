import { createServer } from 'node:net'

export type GetFreePortParameters = { host?: string }

/** Asks the kernel for an unused TCP port by binding port 0, then releases it. */
export function getFreePort({ host = '127.0.0.1' }: GetFreePortParameters = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, host, () => {
      const address = server.address()
      if (address === null || typeof address === 'string') {
        server.close()
        reject(new Error('Could not read the bound port.'))
        return
      }
      server.close(() => resolve(address.port))
    })
  })
}
