import { readFile } from 'node:fs/promises'
import { buildApp } from '../server/http/buildApp.ts'
import { createStore } from '../server/store/createStore.ts'
import { openApiPath } from '../test/rest/startRestServer.ts'
import { runSlowClientAttack, slowClientLimits } from '../test/rest/slowClientAttack.ts'
import { percentile } from './percentile.ts'


/** The target the slow-clients test used to assert: /v1/stats answers at p99 under 1 s during the attack. */
export const slowClientsTargetP99Ms = 1_000

export type SlowClientsRound = {
  answers: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** Every answer's status was 200. */
  allOk: boolean
  /** The latest close of a half-sent socket, from its connection (ms); the headers timeout is 1,000 ms, checked every 250 ms. */
  halfSentClosedMaxMs: number
  /** The latest close of an idle keep-alive socket, from its answer (ms); the keep-alive timeout is 500 ms (+1 s Node's grace). */
  idleClosedMaxMs: number
}

export type SlowClientsResult = { sockets: number; rounds: SlowClientsRound[]; targetP99Ms: number; met: boolean }

/**
 * Slowloris against the REST app (`buildApp`, the slow-client limits, an empty store) on a real
 * socket: 300 half-sent requests in 4 waves 400 ms apart after an idle keep-alive socket, played
 * by test/rest/slowClientAttack.ts in this process as the test plays it, while /v1/stats is asked
 * one request after another. Reports how fast /v1/stats answered meanwhile, and how soon the
 * server closed the hostile sockets. `npm run bench -- --slow-clients-only`.
 */
export async function measureSlowClients({ rounds = 3, progress }: { rounds?: number; progress: (message: string) => void }): Promise<SlowClientsResult> {
  const store = createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet' })
  const app = buildApp({ store, mode: 'production', openApiText: await readFile(openApiPath, 'utf8'), docsHtml: '<!doctype html>', limits: slowClientLimits })
  const port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port)
  const measured: SlowClientsRound[] = []
  try {
    for (let round = 1; round <= rounds; round++) {
      progress(`slow clients: round ${round} of ${rounds}, 300 half-sent requests against REST while /v1/stats is timed`)
      const { idle, halfSent, probe } = await runSlowClientAttack({
        targets: [{ port, path: '/v1/stats' }],
        probePort: port,
        clientsPerTarget: 300,
        waves: 4,
        waveGapMs: 400,
        giveUpMs: 30_000,
      })
      const sorted = probe.durationsMs.toSorted((a, b) => a - b)
      measured.push({
        answers: sorted.length,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        maxMs: sorted.at(-1) ?? Number.NaN,
        allOk: probe.statuses.every((status) => status === 200),
        halfSentClosedMaxMs: Math.max(...halfSent.map(({ closedAfterMs }) => closedAfterMs)),
        idleClosedMaxMs: Math.max(...idle.map(({ closedAfterMs }) => closedAfterMs)),
      })
    }
  } finally {
    await app.close()
  }
  return { sockets: 300, rounds: measured, targetP99Ms: slowClientsTargetP99Ms, met: measured.every(({ p99Ms, allOk }) => allOk && p99Ms < slowClientsTargetP99Ms) }
}

export function printSlowClientsTable({ sockets, rounds, targetP99Ms, met }: SlowClientsResult): string {
  const ms = (value: number): string => (Number.isFinite(value) ? `${Math.round(value).toLocaleString('en-US')} ms` : 'never')
  return [
    `GET /v1/stats during slowloris (${sockets} half-sent requests in 4 waves against the REST app):`,
    '',
    '| round | answers | p50 | p99 | max | all 200 | last half-sent socket closed | idle keep-alive closed |',
    '|---|---|---|---|---|---|---|---|',
    ...rounds.map(
      (round, index) =>
        `| ${index + 1} | ${round.answers} | ${ms(round.p50Ms)} | ${ms(round.p99Ms)} | ${ms(round.maxMs)} | ${round.allOk ? 'yes' : 'no'} | ${ms(round.halfSentClosedMaxMs)} | ${ms(round.idleClosedMaxMs)} |`,
    ),
    '',
    `Target: p99 under ${targetP99Ms.toLocaleString('en-US')} ms in every round, every answer 200: ${met ? 'met' : 'not met'}.`,
  ].join('\n')
}
