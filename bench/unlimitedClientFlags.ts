/**
 * The bench loads every server from one address (127.0.0.1) at thousands of requests a second over
 * `--connections` sockets: the per-client limits a public server has by default (`--rate-limit`,
 * `--max-client-connections`) would refuse most of it. The bench's servers run without them; what
 * the request limiter costs is measured on its own (measureRateLimit, `npm run bench -- --rate-limit-only`).
 */
export const unlimitedClientFlags: readonly string[] = ['--rate-limit', '0', '--max-client-connections', '0']
