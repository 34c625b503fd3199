export type CreateHeadCacheParameters = {
  readHead: () => Promise<bigint>
  /** How long an answer stands for the head. */
  maxAgeMs?: number
}

/** The node's head, read at most once per `maxAgeMs`; concurrent callers share one read. */
export function createHeadCache({ readHead, maxAgeMs = 100 }: CreateHeadCacheParameters): () => Promise<bigint> {
  let cached: { head: Promise<bigint>; readAt: number } | undefined
  return () => {
    const at = performance.now()
    if (cached === undefined || at - cached.readAt > maxAgeMs) {
      const head = readHead()
      cached = { head, readAt: at }
      // A failed read must not stand for the head until it expires.
      head.catch(() => {
        if (cached?.head === head) cached = undefined
      })
    }
    return cached.head
  }
}
