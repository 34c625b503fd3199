import { expect } from 'vitest'

/** The samples of a Prometheus text answer, by series (`name{labels}`), without the default `service` label. */
export async function scrapeMetrics(url: string): Promise<Map<string, number>> {
  const response = await fetch(`${url}/metrics`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  const samples = new Map<string, number>()
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const match = /^(\S+?)(\{.*\})? (\S+)$/.exec(line)
    if (match === null) throw new Error(`not a Prometheus sample line: ${line}`)
    const labels = (match[2] ?? '').replace(/,?service="[a-z]+"/, '').replace(/^\{,/, '{')
    samples.set(`${match[1]}${labels === '{}' ? '' : labels}`, Number(match[3]))
  }
  return samples
}
