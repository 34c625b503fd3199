import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const committedConfigPath = fileURLToPath(new URL('../../../deploy/nginx.conf', import.meta.url))

export type StartNginxParameters = {
  /** Where the HTTPS and HTTP listeners go on 127.0.0.1. */
  httpsPort: number
  httpPort: number
  restPort: number
  mcpPort: number
  /** One certificate for api.example.org and mcp.example.org. */
  certPath: string
  keyPath: string
  /** The address nginx connects to the servers from, the one they trust. */
  proxyBind: string
  /** More directives for the http { } block, as a distribution's own nginx.conf has there (Debian's turns gzip on). */
  httpDirectives?: string
}

export type StartNginxReturnType = { errorLog: () => string; stop: () => Promise<void> }

/**
 * Debian's nginx as an unprivileged child running deploy/nginx.conf, with only what a test needs
 * changed: listeners on 127.0.0.1 ports, the servers' ports, the certificate, and temp paths,
 * pid and logs in a temp dir.
 */
export async function startNginx({ httpsPort, httpPort, restPort, mcpPort, certPath, keyPath, proxyBind, httpDirectives = '' }: StartNginxParameters): Promise<StartNginxReturnType> {
  const dir = mkdtempSync(join(tmpdir(), 'tee-market-nginx-'))
  const site = readFileSync(committedConfigPath, 'utf8')
    .replaceAll('listen 443 ', `listen 127.0.0.1:${httpsPort} `)
    .replaceAll('listen 80;', `listen 127.0.0.1:${httpPort};`)
    .replaceAll('server 127.0.0.1:8080;', `server 127.0.0.1:${restPort};`)
    .replaceAll('server 127.0.0.1:8081;', `server 127.0.0.1:${mcpPort};`)
    .replace(/\/etc\/letsencrypt\/live\/[^/]+\/fullchain\.pem/g, certPath)
    .replace(/\/etc\/letsencrypt\/live\/[^/]+\/privkey\.pem/g, keyPath)
  writeFileSync(join(dir, 'site.conf'), site)
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp))
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 256; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_bind ${proxyBind};
  ${httpDirectives}
  include ${dir}/site.conf;
}
`,
  )
  const errorLog = (): string => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8')
    } catch {
      return ''
    }
  }
  const child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const deadline = Date.now() + 10_000
  while (!(await accepts(httpsPort))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`nginx did not start: ${stderr}${errorLog()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    errorLog,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGQUIT')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}
