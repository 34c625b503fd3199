import { type TeeVerdictName, TeeVerdictListSchema } from '../contract/tee.ts'
import { BenchChildError } from '../errors/bench.ts'

export type AwaitFirstTeeRoundParameters = {
  /** How many services the market has: the round is over when each has a verdict. */
  services: number
  /** The server's CPU time so far, µs. */
  serverCpu: () => Promise<number>
  timeoutMs?: number | undefined
}

export type FirstTeeRoundResult = {
  services: number
  /** Verdicts by name once every service had one. */
  verdicts: Partial<Record<TeeVerdictName, number>>
  /** From the call (the end of the back-fill) to the last verdict. */
  durationMs: number
  /** The server's CPU over that time: the checks', beside an otherwise idle server. */
  serverCpuMs: number
}

/**
 * Waits until the server under test has a TEE verdict for every service (its first round of
 * checks, in the background after the back-fill), so that the stages after it load the REST
 * routes with the checking running in its steady state, and says what the round took.
 */
export async function awaitFirstTeeRound(restUrl: string, { services, serverCpu, timeoutMs = 300_000 }: AwaitFirstTeeRoundParameters): Promise<FirstTeeRoundResult> {
  const startedAt = performance.now()
  const cpuBefore = await serverCpu()
  for (;;) {
    const list = TeeVerdictListSchema.parse(await (await fetch(`${restUrl}/v1/services/tee`)).json())
    if (list.count >= services) {
      const verdicts: Partial<Record<TeeVerdictName, number>> = {}
      for (const { verdict } of list.verdicts) verdicts[verdict] = (verdicts[verdict] ?? 0) + 1
      return { services, verdicts, durationMs: performance.now() - startedAt, serverCpuMs: ((await serverCpu()) - cpuBefore) / 1000 }
    }
    if (performance.now() - startedAt > timeoutMs) throw new BenchChildError(`The server under test checked ${list.count} of ${services} services' TEE in ${timeoutMs / 1000} s.`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
