import { unwatchFile, watchFile, type StatsListener } from 'node:fs'
import type { SecureContextOptions } from 'node:tls'

import { readTlsCredentials, type ReadTlsCredentialsParameters, type TlsCredentials } from './readTlsCredentials.ts'

/** What `https.Server` and `http2.Http2SecureServer` share: a context for the next handshakes. */
export type SecureServer = { setSecureContext: (options: SecureContextOptions) => void }

export type WatchTlsCredentialsParameters = ReadTlsCredentialsParameters & {
  /** How often the files are looked at (default 5 s): stat polling, which follows certbot's symlink swaps. */
  intervalMs?: number | undefined
  onReload: (credentials: TlsCredentials) => void
  /** A renewed pair that cannot be served; the certificate in force is kept. */
  onError: (error: Error) => void
}

/** Stops watching; the certificate last loaded stays in force. */
export type WatchTlsCredentialsReturnType = () => void

/**
 * Serves a renewed certificate without a restart: when either file changes on disk, or on SIGHUP,
 * the pair is read and checked again and handed to the server for every new connection (open
 * connections keep theirs). A pair that fails the check (say the certificate was replaced and the
 * key not yet) is reported and the old one kept; the next change tries again.
 */
export function watchTlsCredentials(
  server: SecureServer,
  { certPath, keyPath, intervalMs = 5_000, onReload, onError }: WatchTlsCredentialsParameters,
): WatchTlsCredentialsReturnType {
  let reading = false
  let again = false
  const reload = (): void => {
    if (reading) {
      again = true
      return
    }
    reading = true
    readTlsCredentials({ certPath, keyPath })
      .then((credentials) => {
        server.setSecureContext({ cert: credentials.cert, key: credentials.key })
        onReload(credentials)
      }, (error: unknown) => onError(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        reading = false
        if (again) {
          again = false
          reload()
        }
      })
  }
  const onChange: StatsListener = (current, previous) => {
    if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino || current.size !== previous.size) reload()
  }
  const onSignal = (): void => reload()
  watchFile(certPath, { interval: intervalMs, persistent: false }, onChange)
  watchFile(keyPath, { interval: intervalMs, persistent: false }, onChange)
  process.on('SIGHUP', onSignal)
  return () => {
    unwatchFile(certPath, onChange)
    unwatchFile(keyPath, onChange)
    process.off('SIGHUP', onSignal)
  }
}
