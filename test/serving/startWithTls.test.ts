import { execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'
import { getFreePort } from '../support/getFreePort.ts'
import { makeTestCertificates } from '../support/makeTestCertificates.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const certificates = makeTestCertificates()
afterAll(() => certificates.remove())

test('npm start with --tls-cert and --tls-key serves every component on https:// and prints https:// MCP entries', async () => {
  const { certPath, keyPath } = certificates.issue('start')
  const [rpcPort, port, mcpPort, sellerPort] = [await getFreePort(), await getFreePort(), await getFreePort(), await getFreePort()]
  const env = { ...process.env }
  for (const name of ['PORT', 'HOST', 'MCP_PORT', 'SELLER_PORT', 'RPC_URL', 'MARKET_NETWORK', 'DEPLOYMENT_PATH', 'TLS_CERT', 'TLS_KEY']) delete env[name]
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'devnet/start.ts', '--rpc-port', String(rpcPort), '--port', String(port), '--mcp-port', String(mcpPort),
      '--seller-port', String(sellerPort), '--deployment', join(certificates.dir, 'deployment.json'), '--tls-cert', certPath, '--tls-key', keyPath],
    { cwd: projectRoot, env },
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  try {
    while (!output.includes('Press Ctrl+C to stop.')) {
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(/https?:\/\/\S+/.exec(output)?.[0]).toBe(`https://127.0.0.1:${port}/`)
    expect(output).toMatch(new RegExp(`hosted MCP +https://127\\.0\\.0\\.1:${mcpPort}/mcp`))
    expect(output).toMatch(new RegExp(`seller outputs +https://127\\.0\\.0\\.1:${sellerPort}/outputs/`))
    expect(output).toContain(`"url": "https://127.0.0.1:${mcpPort}/mcp"`)
    expect(output).toContain(`"MARKET_OUTPUT_URL": "https://127.0.0.1:${sellerPort}/outputs/{jobId}"`)
    expect(output).toContain(`"NODE_EXTRA_CA_CERTS": "${certPath}"`)
    const curl = (url: string) => promisify(execFile)('curl', ['-sS', '--max-time', '10', '--cacert', certificates.caPath, '-o', '/dev/null', '-w', '%{http_code}', url])
    expect((await curl(`https://127.0.0.1:${port}/v1/stats`)).stdout).toBe('200')
    expect((await curl(`https://127.0.0.1:${mcpPort}/healthz`)).stdout).toBe('200')
    // The seller answers 404 for an output nobody asked for with a signature: it is there, over TLS.
    expect((await curl(`https://127.0.0.1:${sellerPort}/outputs/1`)).stdout).toMatch(/^4\d\d$/)
  } finally {
    child.kill('SIGINT')
    await exited
  }
})
