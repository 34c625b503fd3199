import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { JobDetail, JobStateName } from '../../../contract/job.ts'
import { jobStateNames } from '../../../contract/job.ts'

/** One Server-Sent Event as the indexer writes it: `id:` (when given), `event:`, one `data:` line of JSON. */
export function frame({ id, event, data }: { id?: string; event: string; data: unknown }): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
}

/** A connection to `GET /v1/events`, for a handler to answer as the test needs. */
export type FeedStream = {
  request: IncomingMessage
  response: ServerResponse
  /** 200 `text/event-stream`, then `retry: 3000` as the indexer starts every stream. */
  open: () => void
  /** Writes these bytes as they are (a frame, part of one, a comment). */
  write: (text: string) => void
  send: (event: Parameters<typeof frame>[0]) => void
  /** Closes the socket once what was written is sent: the connection is cut wherever the stream stands (mid-chunk, mid-event). */
  cut: () => void
  /** Ends the response cleanly, as the indexer does at a stream's longest life. */
  end: () => void
  /** A JSON refusal `{ error: { code, message } }`, with `Retry-After` when given. */
  refuse: (status: number, { code, message, retryAfter }: { code: string; message?: string; retryAfter?: string }) => void
}

export type FeedHandler = (stream: FeedStream) => void | Promise<void>

export type RecordedRequest = { url: URL; headers: IncomingHttpHeaders; at: number; closed: Promise<void> }

export type FeedServer = {
  baseUrl: string
  /** Every `GET /v1/events`, in order; `closed` resolves when its connection closes. */
  eventRequests: RecordedRequest[]
  /** Every `GET /v1/jobs/:id`, in order, with the status answered. */
  jobRequests: (RecordedRequest & { status: number })[]
  /** What `GET /v1/jobs/:id` answers from now on: the job, 404 (undefined), or a refusal with this status. */
  setJob: (job: JobDetail | undefined | { status: number }) => void
  stop: () => Promise<void>
}

export type StartFeedServerParameters = {
  /** The nth connection to `/v1/events` is answered by the nth handler, the last one by every later connection. */
  events: readonly FeedHandler[]
  /** The one job `GET /v1/jobs/:id` knows (its id is `job.jobId`), with an ETag and 304s. */
  job?: JobDetail
}

/**
 * A small indexer on 127.0.0.1 that speaks the live feed's wire protocol as each test scripts it
 * (`GET /v1/events`) and answers `GET /v1/jobs/:id` for one job, conditionally as the real one
 * does; everything else is 404.
 */
export async function startFeedServer({ events, job: initialJob }: StartFeedServerParameters): Promise<FeedServer> {
  let job: JobDetail | undefined | { status: number } = initialJob
  const eventRequests: RecordedRequest[] = []
  const jobRequests: (RecordedRequest & { status: number })[] = []
  const record = (request: IncomingMessage): RecordedRequest => ({
    url: new URL(request.url ?? '/', 'http://127.0.0.1'),
    headers: request.headers,
    at: Date.now(),
    closed: new Promise((resolve) => request.socket.once('close', () => resolve())),
  })
  const server = createServer((request, response) => {
    const recorded = record(request)
    if (recorded.url.pathname === '/v1/events') {
      const handler = events[Math.min(eventRequests.length, events.length - 1)]!
      eventRequests.push(recorded)
      void handler(feedStream(request, response))
      return
    }
    const jobPath = /^\/v1\/jobs\/(\d+)$/.exec(recorded.url.pathname)
    if (jobPath !== null) {
      const status = answerJob(request, response, job === undefined || ('jobId' in job && job.jobId !== jobPath[1]) ? undefined : job)
      jobRequests.push({ ...recorded, status })
      return
    }
    writeJson(response, 404, { error: { code: 'not_found', message: `Nothing at "${recorded.url.pathname}".` } })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    eventRequests,
    jobRequests,
    setJob: (next) => {
      job = next
    },
    stop: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function feedStream(request: IncomingMessage, response: ServerResponse): FeedStream {
  const write = (text: string): void => {
    if (!response.destroyed) response.write(text)
  }
  return {
    request,
    response,
    open: () => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      write('retry: 3000\n\n')
    },
    write,
    send: (event) => write(frame(event)),
    cut: () => request.socket.end(),
    end: () => response.end(),
    refuse: (status, { code, message = `Refused with ${code}.`, retryAfter }) =>
      writeJson(response, status, { error: { code, message } }, retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
  }
}

/** The job as `GET /v1/jobs/:id` answers it: 200 with an ETag, 304 when `If-None-Match` holds it, 404 when unknown; or a refusal. */
function answerJob(request: IncomingMessage, response: ServerResponse, job: JobDetail | { status: number } | undefined): number {
  if (job === undefined) {
    writeJson(response, 404, { error: { code: 'job_not_found', message: 'Job could not be found.' } })
    return 404
  }
  if (!('jobId' in job)) {
    writeJson(response, job.status, { error: { code: 'refused', message: `Refused with ${job.status}.` } })
    return job.status
  }
  const etag = `"${job.state}-${job.events.length}-${job.events.at(-1)?.blockNumber}"`
  if (request.headers['if-none-match'] === etag) {
    response.writeHead(304, { etag }).end()
    return 304
  }
  writeJson(response, 200, job, { etag })
  return 200
}

function writeJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body))
}

const address = (byte: string): `0x${string}` => `0x${byte.repeat(20)}`
const hash = (byte: string): `0x${string}` => `0x${byte.repeat(32)}`

/**
 * A job as the indexer serves it, in `stateName`, whose last event stands at `blockNumber`
 * (log 0): what a test's fake indexer answers and streams. Typed as the contract's JobDetail; not
 * checked against its schema (tests with `validateResponse` build their own).
 */
export function jobAt({ jobId = '7', stateName, blockNumber }: { jobId?: string; stateName: JobStateName; blockNumber: number }): JobDetail {
  const state = jobStateNames.indexOf(stateName)
  return {
    jobId,
    serviceId: '1',
    buyer: address('11'),
    seller: address('22'),
    amount: '1000000000000000',
    protocolFee: '50000000000000',
    createdAt: '1778220000',
    timeout: '1778223600',
    state,
    stateName,
    inputCommitment: hash('33'),
    events: [
      { event: 'JobCreated', blockNumber: '5', transactionHash: hash('a1'), logIndex: 0, timestamp: '1778220000' },
      ...(blockNumber > 5 ? [{ event: 'JobExpired' as const, blockNumber: String(blockNumber), transactionHash: hash('b2'), logIndex: 0, timestamp: '1778220100' }] : []),
    ],
  }
}
