import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { type Address, type Hex, getAddress } from 'viem'
import { z } from 'zod'
import { UintStringSchema } from '../../contract/primitives.ts'
import { SellerStateFileError } from '../../errors/seller.ts'
import type { SellerBackendUsage } from './backends/SellerBackend.ts'

/** An answer the seller produced for a job; served to the buyer once `settled`. */
export type SellerOutput = {
  jobId: bigint
  buyer: Address
  /** The job's inputCommitment when answered: a job of the same id made again after a reorg is another job. Absent in older state files. */
  inputCommitment?: Hex | undefined
  output: string
  usage: SellerBackendUsage
  /** keccak256 of the output's UTF-8 bytes, the value submitted on chain. */
  outputRootHash: Hex
  /** The chain holds this outputRootHash for the job. Until then the output is not served. */
  settled: boolean
}

export type CreateSellerStoreParameters = {
  /** JSON file to keep outputs and scan progress across restarts; memory only when absent. */
  file?: string | undefined
  /**
   * Names the chain and deployment the state belongs to. A file written for another chain (a
   * fresh devnet reuses contract addresses and job ids) is ignored rather than served from.
   */
  chainKey: string
}

export type SellerStore = {
  /** The first block whose JobCreated events are not known to be handled, if recorded. */
  resumeBlock: () => bigint | undefined
  setResumeBlock: (block: bigint) => void
  getOutput: (jobId: bigint) => SellerOutput | undefined
  putOutput: (output: SellerOutput) => void
}

const uintText = UintStringSchema.transform(BigInt)
const hexText = z.string().regex(/^0x[0-9a-fA-F]*$/).transform((text) => text as Hex)

const StateFileSchema = z.object({
  chainKey: z.string(),
  resumeBlock: uintText.nullable(),
  outputs: z.array(
    z.object({
      jobId: uintText,
      buyer: z.string().transform((text) => getAddress(text)),
      inputCommitment: hexText.optional(),
      output: z.string(),
      usage: z.object({
        model: z.string(),
        promptTokens: z.number().int().nonnegative(),
        completionTokens: z.number().int().nonnegative(),
      }),
      outputRootHash: hexText,
      settled: z.boolean(),
    }),
  ),
})

/** Outputs by job id and the scan position, optionally mirrored to a JSON file on each change. */
export function createSellerStore({ file, chainKey }: CreateSellerStoreParameters): SellerStore {
  const outputs = new Map<bigint, SellerOutput>()
  let resumeBlock: bigint | undefined

  const saved = file === undefined ? undefined : readStateFile(file)
  if (saved !== undefined && saved.chainKey === chainKey) {
    resumeBlock = saved.resumeBlock ?? undefined
    for (const output of saved.outputs) outputs.set(output.jobId, output)
  }

  const persist = (): void => {
    if (file === undefined) return
    const state = {
      chainKey,
      resumeBlock: resumeBlock === undefined ? null : resumeBlock.toString(),
      outputs: [...outputs.values()].map((output) => ({ ...output, jobId: output.jobId.toString() })),
    }
    // Write then rename, so a crash mid-write never leaves a truncated state file.
    const temporary = `${file}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`)
    renameSync(temporary, file)
  }

  return {
    resumeBlock: () => resumeBlock,
    setResumeBlock(block) {
      if (block === resumeBlock) return
      resumeBlock = block
      persist()
    },
    getOutput: (jobId) => outputs.get(jobId),
    putOutput(output) {
      outputs.set(output.jobId, output)
      persist()
    },
  }
}

function readStateFile(file: string): z.output<typeof StateFileSchema> | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    // No state yet: the first run of this seller.
    return undefined
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    throw new SellerStateFileError(file, { cause })
  }
  const parsed = StateFileSchema.safeParse(json)
  if (!parsed.success) throw new SellerStateFileError(file, { cause: parsed.error })
  return parsed.data
}
