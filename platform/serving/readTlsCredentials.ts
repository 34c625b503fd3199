import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { TlsFileError } from '../../errors/tls.ts'

export type ReadTlsCredentialsParameters = {
  /** PEM certificate, the server's first, then any intermediates (what certbot calls fullchain.pem). */
  certPath: string
  /** PEM private key of the first certificate. */
  keyPath: string
}

export type TlsCredentials = {
  cert: string
  key: string
  /** The served certificate's SHA-256 fingerprint and expiry, for the start and reload log lines. */
  fingerprint256: string
  validTo: string
}

export type ReadTlsCredentialsReturnType = TlsCredentials

/**
 * Reads a certificate and its key and checks that they belong together, so that a wrong file is an
 * error naming it before any client connects, not a handshake failure for every client after.
 * Throws TlsFileError.
 */
export async function readTlsCredentials({ certPath, keyPath }: ReadTlsCredentialsParameters): Promise<ReadTlsCredentialsReturnType> {
  const [cert, key] = await Promise.all([
    readText({ setting: '--tls-cert', path: certPath, expected: 'a readable PEM certificate file' }),
    readText({ setting: '--tls-key', path: keyPath, expected: 'a readable PEM private key file' }),
  ])
  let certificate: X509Certificate
  try {
    certificate = new X509Certificate(cert)
  } catch (cause) {
    throw new TlsFileError({ setting: '--tls-cert', path: certPath, problem: 'holds no PEM certificate', expected: 'a PEM certificate (-----BEGIN CERTIFICATE-----)', cause })
  }
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey(key)
  } catch (cause) {
    throw new TlsFileError({ setting: '--tls-key', path: keyPath, problem: 'holds no PEM private key', expected: 'a PEM private key (-----BEGIN PRIVATE KEY-----), unencrypted', cause })
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new TlsFileError({
      setting: '--tls-key',
      path: keyPath,
      problem: `is not the key of the certificate in "${certPath}" (${certificate.subject.replace(/\n/g, ', ')})`,
      expected: 'the private key the certificate was issued for',
    })
  }
  return { cert, key, fingerprint256: certificate.fingerprint256, validTo: certificate.validTo }
}

async function readText({ setting, path, expected }: { setting: string; path: string; expected: string }): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (cause) {
    throw new TlsFileError({ setting, path, problem: 'cannot be read', expected, cause })
  }
}
