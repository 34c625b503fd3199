import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { CountSchema } from './lists.ts'
import { describeField } from './describeField.ts'
import { AddressSchema, HexSchema, UintStringSchema } from './primitives.ts'

export const teeVerdictNames = ['verified', 'acknowledged', 'failed', 'unreachable', 'none'] as const
export const TeeVerdictNameSchema = z
  .enum(teeVerdictNames)
  .describe(
    'verified: our own check of the quote, its TCB, the key binding and the compose hash passed. acknowledged: nothing failed, our check could not complete, and 0G\'s contract owner acknowledged this signer. failed: the evidence contradicts the service. unreachable: no evidence could be had now. none: the provider has no record on 0G.',
  )
export type TeeVerdictName = z.output<typeof TeeVerdictNameSchema>

export const teeCheckNames = ['provider', 'quote', 'tcb', 'binding', 'registrySigner', 'compose', 'appraisal', 'gpu', 'teeTls'] as const
export const TeeCheckSchema = extendApi(
  z.object({
    name: z.enum(teeCheckNames).describe('What was checked (see docs/tee.md).'),
    status: z.enum(['pass', 'fail', 'skip']).describe('How it came out; skip says why it could not or need not run.'),
    reason: z.string().describe('Why, in a sentence.'),
  }),
  { title: 'TeeCheck', description: 'One check of a TEE verdict.' },
)
export type TeeCheck = z.output<typeof TeeCheckSchema>
export type TeeCheckName = TeeCheck['name']
export type TeeCheckStatus = TeeCheck['status']

const Register = (what: string) => describeField(HexSchema, { description: what })

export const TdxMeasurementsSchema = extendApi(
  z.object({
    mrTd: Register('MRTD: the TD\'s initial image (firmware).'),
    rtmr0: Register('RTMR0: firmware configuration.'),
    rtmr1: Register('RTMR1: the kernel.'),
    rtmr2: Register('RTMR2: kernel command line and initrd.'),
    rtmr3: Register('RTMR3: the application (dstack extends the compose hash into it).'),
    mrConfigId: Register('MR_CONFIG_ID: dstack version 1 puts 0x01 ‖ compose hash here.'),
    composeHash: HexSchema.nullable().describe('The compose hash the TD measured; null when none could be read.'),
  }),
  { description: 'What the verified quote measured, 0x-prefixed lowercase hex.' },
)

export const TeeProviderRecordSchema = extendApi(
  z.object({
    url: z.string().describe("The provider's endpoint as its 0G record gives it (anyone's text)."),
    model: z.string().describe('The model the 0G record names.'),
    verifiability: z.string().describe('The 0G record\'s verifiability, e.g. "TeeML".'),
    targetSeparated: z.boolean().describe("additionalInfo's TargetSeparated: a TeeTLS proxy whose model runs upstream."),
    teeSignerAddress: AddressSchema.nullable().describe('The TEE signer the 0G record names; null for the zero address.'),
    teeSignerAcknowledged: z.boolean().describe("Whether 0G's contract owner acknowledged that signer."),
  }),
  { description: "The service provider's record on 0G's InferenceServing contract." },
)
export type TeeProviderRecord = z.output<typeof TeeProviderRecordSchema>

export const TeeVerdictSchema = extendApi(
  z.object({
    serviceId: describeField(UintStringSchema, { description: 'The service judged.', example: '1' }),
    signingAddress: describeField(AddressSchema, { description: 'The signing address the verdict is about (the service\'s, when checked).' }),
    verdict: TeeVerdictNameSchema,
    summary: z.string().describe('One sentence for a badge or an agent.'),
    checks: z.array(TeeCheckSchema).describe('Every check, in order, with its outcome.'),
    checkedAt: z.string().datetime().describe('When the evidence was last checked (ISO 8601).'),
    expiresAt: z.string().datetime().describe('When the verdict stops standing and is checked again (ISO 8601).'),
    measurements: TdxMeasurementsSchema.nullable().describe('What the verified quote measured; null when no quote verified.'),
    tcbStatus: z.string().nullable().describe("The platform's TCB status in Intel's collateral; null when unknown."),
    advisoryIds: z.array(z.string()).describe('Intel security advisories that apply to the platform.'),
    provider: TeeProviderRecordSchema.nullable().describe("The provider's 0G record; null when it has none."),
  }),
  { title: 'TeeVerdict', description: "Whether this service's signing key lives in a TEE, as this indexer checked it." },
)
export type TeeVerdict = z.output<typeof TeeVerdictSchema>

export const TeeVerdictListSchema = extendApi(
  z.object({
    count: CountSchema,
    verdicts: z.array(TeeVerdictSchema).describe('The verdict of every service checked so far, by ascending serviceId.'),
  }),
  { title: 'TeeVerdictList', description: 'The TEE verdicts of all services.' },
)
export type TeeVerdictList = z.output<typeof TeeVerdictListSchema>

const Bytes = (what: string) => describeField(HexSchema, { description: `${what}, as 0x-prefixed hex.` })

/** dcap-qvl's `Collateral`, its byte fields as hex: what verified the quote, to verify it again. */
export const TeeCollateralSchema = extendApi(
  z.object({
    pck_crl_issuer_chain: z.string().describe('PEM chain that issued the PCK CRL.'),
    root_ca_crl: Bytes("The root CA's CRL (DER)"),
    pck_crl: Bytes("The PCK CA's CRL (DER)"),
    tcb_info_issuer_chain: z.string().describe('PEM chain that signed the TCB info.'),
    tcb_info: z.string().describe('TCB info JSON as signed.'),
    tcb_info_signature: Bytes('Signature over the TCB info'),
    qe_identity_issuer_chain: z.string().describe('PEM chain that signed the QE identity.'),
    qe_identity: z.string().describe('QE identity JSON as signed.'),
    qe_identity_signature: Bytes('Signature over the QE identity'),
  }),
  { description: "Intel's collateral for the quote's platform (TCB info, QE identity, CRLs), as fetched." },
)
export type TeeCollateral = z.output<typeof TeeCollateralSchema>

export const TeeEventSchema = extendApi(
  z.object({
    imr: z.number().int().min(0).max(3).describe('Zero-based: 0–3 extend RTMR0–3.'),
    eventType: z.number().int().min(0).describe('The TCG event type.'),
    digest: z.union([HexSchema, z.literal('')]).describe('The event digest; empty when the log was stripped of runtime digests (they are recomputed).'),
    event: z.string().describe("dstack's runtime event name; empty for boot events."),
    payload: HexSchema.describe('The event payload.'),
    version: z.union([z.literal(1), z.literal(2)]).optional().describe("dstack's runtime-event digest version (absent: 1)."),
  }),
  { title: 'TeeEvent', description: "One event of the TD's event log, normalised." },
)

export const TeeEvidenceSchema = extendApi(
  z.object({
    serviceId: describeField(UintStringSchema, { description: 'The service the evidence was fetched for.', example: '1' }),
    signingAddress: describeField(AddressSchema, { description: 'The signing address the quote had to name.' }),
    fetchedAt: z.string().datetime().describe('When the report was fetched (ISO 8601): the time to verify it at.'),
    reportUrl: z.string().describe('Where the report was fetched from.'),
    nonce: HexSchema.nullable().describe('The nonce sent with the request; null when the server takes none.'),
    quote: Bytes('The TDX quote'),
    collateral: TeeCollateralSchema.nullable().describe('The collateral the quote was checked with; null when none could be had.'),
    eventLog: z.array(TeeEventSchema).nullable().describe("The TD's event log as served; null when none was."),
    appCompose: z.string().nullable().describe('The app compose file as served; null when none was.'),
    rootCa: HexSchema.nullable().describe('The trusted root certificate (DER) when it is not Intel\'s (the devnet\'s own); null for Intel\'s.'),
  }),
  { title: 'TeeEvidence', description: 'The raw evidence behind a verdict: enough to verify it again offline.' },
)
export type TeeEvidence = z.output<typeof TeeEvidenceSchema>
