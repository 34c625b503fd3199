import { type KeyObject, createHash, createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import type { Collateral, TcbStatus } from '@phala/dcap-qvl'
import { der } from './encodeDer.ts'

/** One certified key of the devnet's TEE root. */
export type TeeRootSigner = { key: KeyObject; certificate: Uint8Array; serial: Uint8Array }

export type TeePlatform = { fmspc: Uint8Array; pceSvn: number; cpuSvn: Uint8Array; teeTcbSvn: Uint8Array; qeMrSigner: Uint8Array }

export type TeeRoot = {
  /** DER of the root certificate: what a verifier trusts on the devnet's chain only. */
  rootCa: Uint8Array
  /** The platform's PCK certificate: it signs the quoting enclave's report. */
  pck: TeeRootSigner
  /** The quoting enclave's attestation key: it signs every quote. */
  attestationKey: KeyObject
  collateral: Collateral
  /** The PEM chain a quote carries: PCK, PCK CA, root. */
  pckChainPem: string
  platform: TeePlatform
}

export type CreateTeeRootParameters = {
  now: Date
  /** How long the collateral (TCB info, QE identity, CRLs) stays valid from `now`. */
  collateralValidForMs?: number | undefined
  tcbStatus?: TcbStatus | undefined
  advisoryIds?: readonly string[] | undefined
  /** `pck`: the PCK CA's CRL revokes the platform's PCK certificate. */
  revoke?: 'pck' | undefined
}

const oids = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  sgx: '1.2.840.113741.1.13.1',
}
const day = 86_400_000
const algorithm = der.sequence(der.oid(oids.ecdsaWithSha256))
const names = { root: 'Devnet SGX Root CA', pckCa: 'Devnet SGX PCK Platform CA', pck: 'Devnet SGX PCK Certificate', tcb: 'Devnet SGX TCB Signing' }

const nameOf = (commonName: string) =>
  der.sequence(
    der.set(der.sequence(der.oid(oids.commonName), der.utf8(commonName))),
    der.set(der.sequence(der.oid(oids.organization), der.utf8('tee-market devnet'))),
  )

const newKey = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
const spkiOf = (key: KeyObject) => new Uint8Array(createPublicKey(key).export({ type: 'spki', format: 'der' }))
const signDer = (key: KeyObject, data: Uint8Array) => new Uint8Array(sign('sha256', data, { key, dsaEncoding: 'der' }))
/** ECDSA as Intel's quotes and collateral carry it: r ‖ s, 32 bytes each. */
export const signRaw = (key: KeyObject, data: Uint8Array) => new Uint8Array(sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }))
const pemOf = (certificate: Uint8Array) =>
  `-----BEGIN CERTIFICATE-----\n${Buffer.from(certificate).toString('base64').replace(/(.{64})/g, '$1\n').trimEnd()}\n-----END CERTIFICATE-----\n`

/** The SGX extension Intel puts in a PCK certificate: PPID, TCB (CPUSVN, PCESVN), PCE id, FMSPC, SGX type. */
function sgxExtension({ fmspc, pceSvn, cpuSvn }: TeePlatform): Uint8Array {
  const item = (suffix: string, value: Uint8Array) => der.sequence(der.oid(`${oids.sgx}.${suffix}`), value)
  const components = [...cpuSvn].map((svn, i) => item(`2.${i + 1}`, der.small(svn)))
  const tcb = der.sequence(...components, item('2.17', der.small(pceSvn)), item('2.18', der.octets(cpuSvn)))
  const value = der.sequence(item('1', der.octets(new Uint8Array(16).fill(7))), item('2', tcb), item('3', der.octets(Uint8Array.of(0, 0))), item('4', der.octets(fmspc)), item('5', der.enumerated(0)))
  return der.sequence(der.oid(oids.sgx), der.octets(value))
}

type Subject = { name: string; key: KeyObject; ca: boolean; extension?: Uint8Array }

function certify(issuer: { name: string; key: KeyObject }, subject: Subject, now: Date): TeeRootSigner {
  const serial = Uint8Array.from([0x01, ...randomBytes(15)])
  const extensions = [
    ...(subject.ca ? [der.sequence(der.oid(oids.basicConstraints), der.boolean(true), der.octets(der.sequence(der.boolean(true))))] : []),
    ...(subject.extension === undefined ? [] : [subject.extension]),
  ]
  const tbs = der.sequence(
    der.explicit(0, der.small(2)),
    der.integer(serial),
    algorithm,
    nameOf(issuer.name),
    der.sequence(der.time(new Date(now.getTime() - day)), der.time(new Date(now.getTime() + 3650 * day))),
    nameOf(subject.name),
    spkiOf(subject.key),
    ...(extensions.length === 0 ? [] : [der.explicit(3, der.sequence(...extensions))]),
  )
  return { key: subject.key, serial, certificate: der.sequence(tbs, algorithm, der.bits(signDer(issuer.key, tbs))) }
}

function crl(issuer: { name: string; key: KeyObject }, thisUpdate: Date, nextUpdate: Date, revoked: readonly Uint8Array[]): string {
  const entries = revoked.map((serial) => der.sequence(der.integer(serial), der.time(thisUpdate)))
  const tbs = der.sequence(der.small(1), algorithm, nameOf(issuer.name), der.time(thisUpdate), der.time(nextUpdate), ...(entries.length === 0 ? [] : [der.sequence(...entries)]))
  return Buffer.from(der.sequence(tbs, algorithm, der.bits(signDer(issuer.key, tbs)))).toString('hex')
}

function signedJson(key: KeyObject, body: object): { json: string; signature: string } {
  const json = JSON.stringify(body)
  return { json, signature: Buffer.from(signRaw(key, new TextEncoder().encode(json))).toString('hex') }
}

const upper = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase()

/**
 * A TEE attestation root of the devnet's own, shaped as Intel's: a root CA, a PCK Platform CA and
 * a platform's PCK certificate (with Intel's SGX extension), a TCB signing certificate, TCB info
 * and QE identity signed by it, and both CRLs. dcap-qvl verifies quotes made with it (see
 * `makeTdxQuote`) once given `rootCa` in place of Intel's root: never trust it beyond the devnet.
 */
export function createTeeRoot({ now, collateralValidForMs = 30 * day, tcbStatus = 'UpToDate', advisoryIds = [], revoke }: CreateTeeRootParameters): TeeRoot {
  const root = { name: names.root, key: newKey() }
  const rootCert = certify(root, { ...root, ca: true }, now)
  const pckCa = { name: names.pckCa, key: newKey() }
  const pckCaCert = certify(root, { ...pckCa, ca: true }, now)
  const platform: TeePlatform = {
    fmspc: Uint8Array.from(Buffer.from('00DE0E7E0000', 'hex')),
    pceSvn: 13,
    cpuSvn: Uint8Array.from([3, 3, 2, 2, 4, 1, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0]),
    teeTcbSvn: Uint8Array.from([5, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    qeMrSigner: new Uint8Array(createHash('sha256').update('tee-market devnet quoting enclave').digest()),
  }
  const pck = certify(pckCa, { name: names.pck, key: newKey(), ca: false, extension: sgxExtension(platform) }, now)
  const tcbSigner = certify(root, { name: names.tcb, key: newKey(), ca: false }, now)
  const issued = new Date(now.getTime() - 3_600_000)
  const issueDate = issued.toISOString().replace('.000', '')
  const nextUpdate = new Date(now.getTime() + collateralValidForMs)
  const next = nextUpdate.toISOString().replace('.000', '')
  const svns = (values: Uint8Array) => [...values].map((svn) => ({ svn }))
  const tcbInfo = signedJson(tcbSigner.key, {
    id: 'TDX', version: 3, issueDate, nextUpdate: next, fmspc: upper(platform.fmspc), pceId: '0000', tcbType: 0, tcbEvaluationDataNumber: 1,
    tcbLevels: [{ tcb: { sgxtcbcomponents: svns(platform.cpuSvn), pcesvn: platform.pceSvn, tdxtcbcomponents: svns(platform.teeTcbSvn) }, tcbDate: issueDate, tcbStatus, advisoryIDs: [...advisoryIds] }],
  })
  const qeIdentity = signedJson(tcbSigner.key, {
    id: 'TD_QE', version: 2, issueDate, nextUpdate: next, tcbEvaluationDataNumber: 1,
    miscselect: '00000000', miscselectMask: 'FFFFFFFF', attributes: '11000000000000000000000000000000', attributesMask: 'FBFFFFFFFFFFFFFF0000000000000000',
    mrsigner: upper(platform.qeMrSigner), isvprodid: 2, tcbLevels: [{ tcb: { isvsvn: 4 }, tcbDate: issueDate, tcbStatus: 'UpToDate', advisoryIDs: [] }],
  })
  const rootPem = pemOf(rootCert.certificate)
  return {
    rootCa: rootCert.certificate,
    pck,
    attestationKey: newKey(),
    platform,
    pckChainPem: pemOf(pck.certificate) + pemOf(pckCaCert.certificate) + rootPem,
    collateral: {
      pck_crl_issuer_chain: pemOf(pckCaCert.certificate) + rootPem,
      root_ca_crl: crl(root, issued, nextUpdate, []),
      pck_crl: crl(pckCa, issued, nextUpdate, revoke === 'pck' ? [pck.serial] : []),
      tcb_info_issuer_chain: pemOf(tcbSigner.certificate) + rootPem,
      tcb_info: tcbInfo.json,
      tcb_info_signature: tcbInfo.signature,
      qe_identity_issuer_chain: pemOf(tcbSigner.certificate) + rootPem,
      qe_identity: qeIdentity.json,
      qe_identity_signature: qeIdentity.signature,
    },
  }
}
