import { afterAll, beforeAll, expect, test } from 'vitest'
import { runSlowClientAttack, slowClientLimits } from './slowClientAttack.ts'
import { startHostedMcp, startRest, startSeller, type HardenedServer } from './startHardenedServers.ts'

// Slowloris against all three servers at once: hundreds of half-sent requests arriving in waves,
// after idle keep-alive connections and while earlier ones are still open or already closed
// (test/rest/slowClientAttack.ts plays the clients). Only the headers and keep-alive timeouts may
// close anything: the idle timeout is longer than any bound here. How fast /v1/stats answers
// meanwhile is the bench's to measure (`npm run bench -- --slow-clients-only`), not a test's.


/** A loaded host's slack on each bound below: far more than one needs, far less than the idle timeout. */
const slackMs = 10_000
/** Node looks for expired requests every quarter of the headers timeout. */
const closeLimitMs = slowClientLimits.headersTimeoutMs + slowClientLimits.headersTimeoutMs / 4 + slackMs
/** Node keeps an idle keep-alive socket 1 s past the timeout it advertises, so a client reusing it at the last moment does not race the close. */
const keepAliveLimitMs = slowClientLimits.keepAliveTimeoutMs + 1_000 + slackMs

let servers: HardenedServer[] = []

beforeAll(async () => {
  servers = [await startRest(slowClientLimits), await startHostedMcp(slowClientLimits), await startSeller(slowClientLimits)]
})
afterAll(() => Promise.all(servers.map((server) => server.close())))

test('300 half-sent requests in waves, after idle keep-alive sockets, are all closed by the headers timeout while /v1/stats answers', async () => {
  const [rest] = servers
  if (rest === undefined) throw new Error('The REST server did not start.')
  const { idle, halfSent, probe } = await runSlowClientAttack({
    targets: servers,
    probePort: rest.port,
    clientsPerTarget: 100,
    waves: 4,
    waveGapMs: 400,
    giveUpMs: Math.max(closeLimitMs, keepAliveLimitMs) + 2_000,
  })

  expect(halfSent).toHaveLength(300)
  expect(idle.map(({ answer }) => answer.slice(0, 12))).toEqual(servers.map(() => expect.stringMatching(/^HTTP\/1\.1 [24]0\d$/)))
  expect(Math.max(...idle.map(({ closedAfterMs }) => closedAfterMs))).toBeLessThan(keepAliveLimitMs)
  // A 408 is the headers (or request) timeout's answer: no other close sends one.
  expect(halfSent.filter(({ answer }) => !answer.startsWith('HTTP/1.1 408 '))).toEqual([])
  expect(Math.max(...halfSent.map(({ closedAfterMs }) => closedAfterMs))).toBeLessThan(closeLimitMs)

  // /v1/stats kept answering, every time 200, while the half-sent sockets were open.
  expect(probe.answeredDuringAttack).toBeGreaterThanOrEqual(3)
  expect(new Set(probe.statuses)).toEqual(new Set([200]))
  console.log(`/v1/stats during the attack: ${probe.statuses.length} answers, slowest ${Math.max(...probe.durationsMs).toFixed(0)} ms`)
})
