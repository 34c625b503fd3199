/**
 * Resolves once `check` passes, retrying it every 100 ms until `timeoutMs` (a deadline for a slow
 * host, not a speed target); rejects with its last failure otherwise.
 */
export async function eventually(check: () => Promise<void>, { timeoutMs = 60_000 }: { timeoutMs?: number } = {}): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}
