import { Agent } from 'node:http'

export type SendFromOneAddressParameters = {
  count: number
  /** Requests in flight at once, each over its own keep-alive connection. */
  inFlight: number
}

/**
 * `count` requests from one client over `inFlight` keep-alive connections of one agent, each
 * sent by `send` with that agent; their answers in the order they came.
 */
export async function sendFromOneAddress<answer>(send: (agent: Agent) => Promise<answer>, { count, inFlight }: SendFromOneAddressParameters): Promise<answer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: inFlight })
  const answers: answer[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next++
        answers.push(await send(agent))
      }
    }),
  )
  agent.destroy()
  return answers
}
