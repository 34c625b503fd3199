import { initClient } from '@ts-rest/core'
import { marketContract } from '../contract/router.ts'
import { JobSchema } from '../contract/job.ts'
import http from 'node:http'
const base = 'http://127.0.0.1:18080'
const n = 2000, conc = 16
async function measure(name: string, one: () => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await one()
  const c0 = process.cpuUsage(); const t0 = performance.now()
  let next = 0
  await Promise.all(Array.from({ length: conc }, async () => { while (next++ < n) await one() }))
  const c = process.cpuUsage(c0); const t = performance.now() - t0
  console.log(name.padEnd(40), 'client CPU µs/call', Math.round((c.user + c.system) / n), 'wall ms/call', (t / n).toFixed(2))
}
const plain = initClient(marketContract, { baseUrl: base, validateResponse: true, throwOnUnknownStatus: true })
const ident = initClient(marketContract, { baseUrl: base, validateResponse: true, throwOnUnknownStatus: true, baseHeaders: { 'accept-encoding': 'identity' } })
const noval = initClient(marketContract, { baseUrl: base, validateResponse: false, throwOnUnknownStatus: true, baseHeaders: { 'accept-encoding': 'identity' } })
const agent = new http.Agent({ keepAlive: true })
const nodeGet = () => new Promise((res, rej) => http.get(`${base}/v1/jobs/5`, { agent, headers: { 'accept-encoding': 'identity' } }, (r) => { let b = ''; r.setEncoding('utf8'); r.on('data', (d) => (b += d)); r.on('end', () => res(JSON.parse(b))) }).on('error', rej))
const rounds = Number(process.argv[2] ?? 2)
for (let r = 0; r < rounds; r++) {
  await measure('ts-rest default (gzip) + validate', async () => JobSchema.parse((await plain.jobs.getJob({ params: { id: '5' }, fetchOptions: { signal: AbortSignal.timeout(10000) } })).body))
  await measure('ts-rest identity + validate', async () => JobSchema.parse((await ident.jobs.getJob({ params: { id: '5' }, fetchOptions: { signal: AbortSignal.timeout(10000) } })).body))
  await measure('ts-rest identity, no validate', async () => (await noval.jobs.getJob({ params: { id: '5' } })).body)
  await measure('node:http keep-alive identity + json', nodeGet)
}
