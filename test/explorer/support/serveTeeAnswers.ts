import type { Page } from 'playwright-core'
import type { TeeEvidence, TeeVerdict } from '../../../contract/tee.ts'

export type TeeAnswers = {
  /** By ascending serviceId, as `GET /v1/services/tee` lists them. */
  verdicts: readonly TeeVerdict[]
  /** By service id. */
  evidence: Readonly<Record<string, TeeEvidence>>
}

const teePath = /\/v1\/services\/(?:tee|([^/]+)\/tee(\/evidence)?)$/

/**
 * Answers the TEE routes of issue 39 (`GET /v1/services/tee`, `/v1/services/:id/tee`,
 * `/v1/services/:id/tee/evidence`) inside the browser, for one page, with the given bodies: the
 * indexer does not serve them yet. Every other request goes to the real server. Once it serves
 * them, the tests drop this call and take their expectations from its answers instead.
 */
export async function serveTeeAnswers(page: Page, { verdicts, evidence }: TeeAnswers): Promise<void> {
  await page.route(teePath, async (route) => {
    const [, serviceId, isEvidence] = teePath.exec(new URL(route.request().url()).pathname) ?? []
    const body =
      serviceId === undefined
        ? { count: verdicts.length, verdicts }
        : isEvidence === undefined
          ? verdicts.find((verdict) => verdict.serviceId === serviceId)
          : evidence[serviceId]
    if (body === undefined) return route.fulfill({ status: 404, json: { error: { code: 'not_found', message: `Service "${serviceId}" has no TEE verdict yet.` } } })
    await route.fulfill({ status: 200, json: body })
  })
}
