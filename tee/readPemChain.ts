import { X509Certificate } from 'node:crypto'

const pemBlock = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g

/** Certificates of a PEM chain as PCS sends it in an `…-Issuer-Chain` header (URL-decoded or not). */
export function readPemChain(chain: string): X509Certificate[] {
  const text = /%[0-9A-Fa-f]{2}/.test(chain) ? decodeURIComponent(chain) : chain
  return (text.match(pemBlock) ?? []).map((pem) => new X509Certificate(pem))
}
