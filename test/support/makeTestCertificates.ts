import { execFileSync } from 'node:child_process'
import { X509Certificate, createHash, createPublicKey } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type IssuedCertificate = {
  /** The server certificate followed by the CA's, as a certbot `fullchain.pem`. */
  certPath: string
  keyPath: string
  fingerprint256: string
}

export type TestCertificates = {
  dir: string
  /** The CA's certificate, PEM: what clients are told to trust. */
  ca: string
  caPath: string
  /** base64 SHA-256 of the CA's public key, for chromium's `--ignore-certificate-errors-spki-list`. */
  caSpkiHash: string
  /** A fresh key and a certificate signed by the CA for 127.0.0.1, localhost and `hosts`, written as `<name>.pem`, `<name>.key`. */
  issue: (name: string, hosts?: readonly string[]) => IssuedCertificate
  remove: () => void
}

/** A CA made for one test file (openssl, P-256, valid two days) and the server certificates it signs. */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'tee-market-tls-'))
  const caPath = join(dir, 'ca.pem')
  const caKeyPath = join(dir, 'ca.key')
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', caKeyPath, '-out', caPath,
    '-days', '2', '-subj', '/CN=tee-market test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign'])
  const ca = readFileSync(caPath, 'utf8')
  const spki = createPublicKey(ca).export({ type: 'spki', format: 'der' })
  let serial = 1
  const issue = (name: string, hosts: readonly string[] = []): IssuedCertificate => {
    const extensions = join(dir, `${name}.ext`)
    const names = ['IP:127.0.0.1', 'DNS:localhost', ...hosts.map((host) => `DNS:${host}`)].join(',')
    writeFileSync(extensions, `subjectAltName=${names}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`)
    const keyPath = join(dir, `${name}.key`)
    const csrPath = join(dir, `${name}.csr`)
    const leafPath = join(dir, `${name}.leaf.pem`)
    const certPath = join(dir, `${name}.pem`)
    openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', keyPath, '-out', csrPath, '-subj', `/CN=${name}`])
    openssl(['x509', '-req', '-in', csrPath, '-CA', caPath, '-CAkey', caKeyPath, '-set_serial', String(serial++), '-days', '2', '-extfile', extensions, '-out', leafPath])
    const leaf = readFileSync(leafPath, 'utf8')
    writeFileSync(certPath, leaf + ca)
    return { certPath, keyPath, fingerprint256: new X509Certificate(leaf).fingerprint256 }
  }
  return {
    dir,
    ca,
    caPath,
    caSpkiHash: createHash('sha256').update(spki).digest('base64'),
    issue,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] })
}
