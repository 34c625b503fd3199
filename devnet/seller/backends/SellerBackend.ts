export type SellerBackendRequest = {
  jobId: bigint
  serviceId: bigint
  /** The service's registered `modelId`. */
  modelId: string
  prompt: string
}

/** What a backend reports about the work it did; its hash is the attestation's `usageHash`. */
export type SellerBackendUsage = {
  /** The model that actually answered (a remote endpoint may name its own). */
  model: string
  promptTokens: number
  completionTokens: number
}

export type SellerBackendAnswer = {
  output: string
  usage: SellerBackendUsage
}

/** Turns a job's prompt into its output. Throws a `SellerBackendError` when it cannot. */
export type SellerBackend = {
  name: string
  answer: (request: SellerBackendRequest) => Promise<SellerBackendAnswer>
}
