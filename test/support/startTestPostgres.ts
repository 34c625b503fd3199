import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { chown, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { getFreePort } from './getFreePort.ts'

const run = promisify(execFile)

export type TestPostgres = {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: trust authentication, this test's server only. */
  url: string
  /** A new, empty database on the same server, for a test of its own. */
  createDatabase(name: string): Promise<string>
  stop(): Promise<void>
}

/**
 * A Postgres server of Debian's `postgresql` package in a temporary folder, on 127.0.0.1 and a free
 * port (initdb, then pg_ctl): never a shared server. Postgres refuses to run as root, so under root
 * it runs as the package's `postgres` user. fsync is off: a test's data need not survive the machine.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = findPostgresBin()
  const folder = await mkdtemp(join(tmpdir(), 'tee-market-pg-'))
  const asUser = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : []
  if (asUser.length > 0) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: group } = await run('id', ['-g', 'postgres'])
    await chown(folder, Number(stdout), Number(group))
  }
  const exec = async (command: string, args: string[]): Promise<void> => {
    const [file, ...rest] = [...asUser, join(bin, command), ...args]
    await run(file as string, rest, { cwd: folder })
  }
  const data = join(folder, 'data')
  const port = await getFreePort()
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
  await exec('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-w', '-o', `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start'])
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  return {
    url,
    createDatabase: async (name) => {
      const client = new pg.Client(url)
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`)
      } finally {
        await client.end()
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`
    },
    stop: async () => {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined)
      await rm(folder, { recursive: true, force: true })
    },
  }
}

/** Where the package's programs are: on PATH when linked there, else Debian's versioned folder. */
function findPostgresBin(): string {
  for (const folder of (process.env.PATH ?? '').split(':')) if (existsSync(join(folder, 'pg_ctl')) && existsSync(join(folder, 'initdb'))) return folder
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : []
  for (const version of versions) if (existsSync(join(root, version, 'bin', 'pg_ctl'))) return join(root, version, 'bin')
  throw new Error('Postgres is not installed: apt-get install -y postgresql (.ci/run does).')
}
