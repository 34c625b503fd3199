import { connect } from 'node:tls'

/** The SHA-256 fingerprint of the certificate a TLS server presents now, checked against `ca`. */
export function readServedCertificate(url: string, { ca, servername }: { ca: string; servername?: string }): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), ca, servername: servername ?? (hostname === '127.0.0.1' ? undefined : hostname) }, () => {
      const { fingerprint256 } = socket.getPeerCertificate()
      socket.end()
      resolve(fingerprint256)
    })
    socket.once('error', reject)
  })
}
